/**
 * A small configurable Petstore for tests: the fake handler behind plain
 * node:http on port 0, in memory, plus the transport misbehaviours (hang,
 * garbage, reset, a huge body) a handler cannot express.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pet } from '../../spec/index.ts';
import {
  createFakeHandler,
  type FakeChoices,
  type FakeResult,
  type GeneratedBug,
  type Violation,
} from './fake-handler.ts';

export type { FakeChoices, GeneratedBug, Violation } from './fake-handler.ts';

/** Options of {@link startFakePetstore}. */
export interface FakePetstoreOptions {
  apiKey?: string;
  /** Seeded pets (default 150, so that limits matter). */
  count?: number;
  violations?: readonly Violation[];
  choices?: FakeChoices;
  /** Bugs only generated requests find. */
  bugs?: readonly GeneratedBug[];
}

/** A running fake. */
export interface FakePetstore {
  /** Base URL ending in `/v1`. */
  url: string;
  apiKey: string;
  pets: Map<number, Pet>;
  /** `METHOD url` of every request received. */
  requests: string[];
  /** The body of every request received, in the same order. */
  bodies: string[];
  close(): Promise<void>;
}

const HUGE = Buffer.alloc(2 * 1024 * 1024, ' ');

function perform(result: FakeResult, req: IncomingMessage, res: ServerResponse): void {
  if ('action' in result) {
    if (result.action === 'hang') return;
    if (result.action === 'reset') return void req.socket.destroy();
    if (result.action === 'garbage') return void req.socket.end('THIS IS NOT HTTP\r\n\u0000\u0001\r\n\r\n');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    res.end(HUGE);
    return;
  }
  res.writeHead(result.status, result.headers);
  res.end(result.body);
}

/** Starts a fake on 127.0.0.1, port 0. */
export async function startFakePetstore(options: FakePetstoreOptions = {}): Promise<FakePetstore> {
  const apiKey = options.apiKey ?? 'fake-key-0123456789';
  const handler = createFakeHandler({ violations: [], choices: {}, ...options, apiKey, count: options.count ?? 150 });
  const requests: string[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      perform(
        handler.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }),
        req,
        res,
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    pets: handler.pets,
    requests,
    bodies,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
