/**
 * The bench's yardstick: a bare node:http server that does the mock's bearer
 * check and answers each route with a fixed, pre-serialised response of the
 * same size (status, headers and body captured from the mock). It is what a
 * Node server here can do at most; run as a child process by bench/run.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAuthenticator } from '../mock/core/auth.ts';

/** A canned response: what the mock answered, replayed byte for byte. */
export interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The responses the bare server replays, one per benchmarked route. */
export interface CannedResponses {
  list: CannedResponse;
  create: CannedResponse;
  get: CannedResponse;
}

/** Options for {@link createBareServer}. */
export interface BareServerOptions {
  apiKey: string;
  responses: CannedResponses;
}

interface Prepared {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

function prepare({ status, headers, body }: CannedResponse): Prepared {
  const bytes = Buffer.from(body);
  const sent: OutgoingHttpHeaders = { ...headers, 'content-length': bytes.length };
  delete sent.date;
  delete sent.connection;
  delete sent['keep-alive'];
  delete sent['transfer-encoding'];
  return { status, headers: sent, body: bytes };
}

/** Makes the bare server (not listening yet): bearer check, then one fixed answer per route. */
export function createBareServer({ apiKey, responses }: BareServerOptions): Server {
  const authenticate = createAuthenticator([apiKey]);
  const list = prepare(responses.list);
  const create = prepare(responses.create);
  const get = prepare(responses.get);
  const unauthorized = prepare({
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="petstore"' },
    body: '{"code":"unauthorized","message":"API key invalid","status":401}',
  });
  return createServer((req, res) => {
    const answer = (prepared: Prepared): void => {
      res.writeHead(prepared.status, prepared.headers);
      res.end(prepared.body);
    };
    if (authenticate(req.headers.authorization) !== null) {
      req.resume();
      answer(unauthorized);
    } else if (req.method === 'POST') {
      // Read the whole body, as the mock must, before answering.
      req.on('data', () => {});
      req.on('end', () => answer(create));
    } else {
      req.resume();
      answer(req.url!.startsWith('/v1/pets/') ? get : list);
    }
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'api-key': { type: 'string' }, responses: { type: 'string' } },
  });
  if (!values['api-key'] || !values.responses)
    throw new Error('usage: bare-server.ts --api-key KEY --responses FILE [--port N]');
  const responses = JSON.parse(readFileSync(values.responses, 'utf8')) as CannedResponses;
  const server = createBareServer({ apiKey: values['api-key'], responses });
  // The same socket settings as the mock's adapter.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.listen(Number(values.port ?? 0), '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`bare server at http://127.0.0.1:${port}/v1\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
