/**
 * A rung of the bench's ladder between the minimal server and the mock: the
 * minimal server's socket code, answering with the mock's one pipeline and no
 * layer (mock/core, bundled from the sources) instead of a fixed body. It adds the route
 * itself (routing, the key check, parameters, store, JSON, the route's
 * headers) and nothing of the mock's node adapter. It answers
 * `POST /__control/reset` itself, so that every round of POSTs starts from the
 * same pets, as on the mock.
 */
import { createServer, type Server } from 'node:http';
import type { ApiRequest, ApiResponse, Fetch } from 'petstore-toolkit/mock/core';
import { RESET_PATH } from './capture.ts';

/** Options for {@link createHandlerServer}. */
interface HandlerServerOptions {
  /** mock/core's pipeline with no layer: `compose([], createHandler())`, answering at once on a store in memory. */
  fetch: Fetch;
  /** Puts the handler's store back to its seeded pets: what `POST /__control/reset` does here. */
  reset: () => void;
}

const RESET_BODY = '{"reset":true}';

/** Makes a minimal server that answers every request but the reset with `fetch` (not listening yet). */
export function createHandlerServer({ fetch, reset }: HandlerServerOptions): Server {
  return createServer((req, res) => {
    const answer = (body?: Buffer): void => {
      const request: ApiRequest = { method: req.method!, url: req.url!, headers: req.headers };
      if (body) request.body = body;
      const response = fetch(request) as ApiResponse;
      const headers: Record<string, string | number> = response.headers;
      headers['content-length'] = Buffer.byteLength(response.body);
      res.writeHead(response.status, headers).end(response.body);
    };
    if (req.method !== 'POST') {
      // As the minimal server: nothing to read, node:http ends the unread stream once the answer is sent.
      answer();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== RESET_PATH) return answer(Buffer.concat(chunks));
      reset();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': RESET_BODY.length }).end(RESET_BODY);
    });
  });
}
