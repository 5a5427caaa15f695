/**
 * A small configurable Petstore for tests: the fake handler behind plain
 * node:http (or TLS) on port 0, in memory, plus the transport behaviours a
 * handler cannot express: hang, garbage, reset, a huge body, added latency on
 * every answer, and a rate limiter that answers every Nth request 429.
 */
import { isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Pet } from '../../spec/index.ts';
import { type Report, runConformance } from '../index.ts';
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
  /** Every answer waits this long first (a server far away). */
  latencyMs?: number;
  /** Every Nth request is answered 429 with `Retry-After` (a conforming, rate-limiting staging). */
  rateLimit?: { every: number; retryAfter: string };
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP; `ca` and `requestCert` ask for a client certificate. */
  tls?: { key: string; cert: string; ca?: string; requestCert?: boolean };
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
  /** The headers of every request received, in the same order. */
  headers: IncomingMessage['headers'][];
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
  const headers: IncomingMessage['headers'][] = [];
  const answer = (req: IncomingMessage, res: ServerResponse, body: string, bodyNotUtf8: boolean): void => {
    requests.push(`${req.method} ${req.url}`);
    headers.push(req.headers);
    const limit = options.rateLimit;
    if (limit && requests.length % limit.every === 0) {
      const error = { code: 'rate_limited', message: 'slow down', status: 429 };
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': limit.retryAfter });
      return void res.end(JSON.stringify(error));
    }
    const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, bodyNotUtf8 };
    perform(handler.handle(request), req, res);
  };
  const bodies: string[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      const notUtf8 = !isUtf8(bytes);
      bodies.push(body);
      if (!options.latencyMs) return answer(req, res, body, notUtf8);
      const timer = setTimeout(() => answer(req, res, body, notUtf8), options.latencyMs);
      res.on('close', () => clearTimeout(timer));
    });
  };
  const server = options.tls
    ? createTlsServer({ ...options.tls, rejectUnauthorized: options.tls.requestCert === true }, listener)
    : createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    apiKey,
    pets: handler.pets,
    requests,
    bodies,
    headers,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Every choice the interface leaves open, made the other way from our mock (the fake that must pass). */
export const EVERY_ALLOWED_CHOICE: Required<Omit<FakeChoices, 'echoAuthorization'>> = {
  descending: true,
  lenient: true,
  malformedId404: true,
  nonJson415: true,
  nonJsonParsed: true,
  extraFields: true,
  errorCode: 'E_SOMETHING_ELSE',
  bigIds: true,
  noAdviceHeaders: true,
  caseSensitiveScheme: true,
  bigCategoryExact: true,
  clientId400: true,
  refuseUnusualNames: true,
  validationBeforeAuth: true,
  routerDigitsOnly: true,
  integerNotationRefused: true,
  absoluteFormRefused: true,
  inexactKeptExact: true,
  keepUnknown: true,
};

/** Runs the suite against a fake made for this run alone, and closes the fake whatever the run did. */
export async function runOnFake(
  options: FakePetstoreOptions,
  run: Partial<Parameters<typeof runConformance>[0]> = {},
): Promise<Report> {
  const fake = await startFakePetstore(options);
  try {
    return await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, ...run });
  } finally {
    await fake.close();
  }
}
