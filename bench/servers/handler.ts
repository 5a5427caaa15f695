/**
 * A rung of the bench's ladder between the minimal server and the mock: the
 * minimal server's socket code, answering with the mock's pure handler
 * (mock/core, as built in dist/) instead of a fixed body. It adds the route
 * itself (routing, the key check, parameters, store, JSON, the route's
 * headers) and nothing of the mock's node adapter.
 */
import { createServer, type Server } from 'node:http';
import type { ApiRequest, Handler } from 'petstore-toolkit/mock/core';

/** Options for {@link createHandlerServer}. */
export interface HandlerServerOptions {
  /** The mock's handler, from `createMock()`. */
  handle: Handler;
}

/** Makes a minimal server that answers every request with `handle` (not listening yet). */
export function createHandlerServer({ handle }: HandlerServerOptions): Server {
  return createServer((req, res) => {
    const answer = (body?: Buffer): void => {
      const request: ApiRequest = { method: req.method!, url: req.url!, headers: req.headers };
      if (body) request.body = body;
      const response = handle(request);
      const headers: Record<string, string | number> = response.headers;
      headers['content-length'] = Buffer.byteLength(response.body);
      res.writeHead(response.status, headers).end(response.body);
    };
    if (req.method !== 'POST') {
      req.resume();
      answer();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(Buffer.concat(chunks)));
  });
}
