/**
 * The node:http adapter: the only socket code of the mock. It reads the body
 * up to a limit, awaits the handler, writes the response or carries out its
 * fault (reset, close, truncated, hang: see ApiResponse in mock/core), and
 * logs one line per request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { redactKeys } from '../../guard/redact.ts';
import { BODY_LIMIT } from '../core/adapter.ts';
import type { Answer, Fetch } from '../core/layers.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from '../core/responses.ts';
import { type HostCheck, hostRefusal } from './hosts.ts';

// One limit for every adapter: the core holds it.
export { BODY_LIMIT };

/** One finished request, for the request log (never carries the key). */
export interface RequestLogEntry {
  method: string;
  /** Path and query, with every configured API key replaced by `[REDACTED]`. */
  path: string;
  /** The status sent; 0 when a fault sent none. */
  status: number;
  /** The fault carried out, if any. */
  fault?: string;
  ms: number;
}

/** Options for {@link createHttpServer}. */
interface HttpServerOptions {
  /** What answers each request: a mock's `fetch` (at once, or a promise when it waits). */
  fetch: Fetch;
  bodyLimit?: number;
  /** Called once per finished request. */
  log?: (entry: RequestLogEntry) => void;
  /** Strings to redact from logged paths (the API keys). */
  secrets?: readonly string[];
  /** How long a client may take (defaults: {@link DEFAULT_TIMEOUTS}). */
  timeouts?: ServerTimeouts;
  /** Which `Host` values are answered; others get a 403 Error, unread (default: every one). */
  hostAllowed?: HostCheck;
}

/** Milliseconds a client may take to send its headers, its whole request, and to send the next request on an idle keep-alive connection. */
export interface ServerTimeouts {
  headersMs?: number;
  requestMs?: number;
  keepAliveMs?: number;
}

/** The timeouts used unless told otherwise: headers 10 s, whole request 30 s, idle keep-alive 5 s. */
export const DEFAULT_TIMEOUTS: Required<ServerTimeouts> = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** Wraps `fetch` in a node:http server with body limit, timeouts and keep-alive. */
export function createHttpServer({
  fetch,
  bodyLimit = BODY_LIMIT,
  log,
  secrets = [],
  timeouts = {},
  hostAllowed,
}: HttpServerOptions): Server {
  const { headersMs, requestMs, keepAliveMs } = { ...DEFAULT_TIMEOUTS, ...timeouts };
  // Slow or idle clients must not hold the server: bound headers, whole requests and idle keep-alive.
  // node checks the first two only every connectionsCheckingInterval (30 s by default), so check often enough to keep them.
  const checkEvery = Math.max(25, Math.min(1_000, Math.floor(headersMs / 4)));
  // Made once per server, not per request: every closure made per request is one more allocation on the hot path.
  const deliver = (
    req: IncomingMessage,
    res: ServerResponse,
    response: ApiResponse,
    closeAfter: boolean,
    started: number,
  ): void => {
    if (response.fault) carryOut(res, response, requestMs);
    else send(res, response, closeAfter);
    if (log)
      log({
        method: req.method ?? '',
        path: redactKeys(req.url ?? '', secrets),
        status: response.fault && response.fault !== 'truncated' ? 0 : response.status,
        ...(response.fault ? { fault: response.fault } : {}),
        ms: performance.now() - started,
      });
  };
  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    request: ApiRequest,
    closeAfter: boolean,
    started: number,
  ): void => {
    const answer = fetchSafely(fetch, request);
    // Answered in the same turn when nothing made the mock wait: a promise would cost every request a microtask trip.
    if (answer instanceof Promise) {
      // A client that gives up while the mock waits (latency, a delay) never reads the answer: the journal and
      // coverage, which record it when it is ready, count it as abandoned.
      res.once('close', () => {
        if (!res.writableFinished) request.abandoned = true;
      });
      void answer.then((response) => deliver(req, res, response, closeAfter, started));
    } else deliver(req, res, answer, closeAfter, started);
  };
  const server = createServer(
    { headersTimeout: headersMs, requestTimeout: requestMs, connectionsCheckingInterval: checkEvery },
    (req, res) => {
      const started = log ? performance.now() : 0;
      if (hostAllowed !== undefined && !hostAllowed(req.headers.host)) {
        // Nothing of it is read or handled: the answer says why, and the connection closes.
        deliver(req, res, hostRefusal(req.headers.host ?? ''), true, started);
        return;
      }
      if (req.method !== 'POST' && req.method !== 'PUT') {
        // No handler reads a body here; one declared over the limit is not drained either: the connection closes after the answer.
        const declared = req.headers['content-length'];
        const overLimit = Number(declared) > bodyLimit;
        // A request with no body (no Content-Length, no Transfer-Encoding) has nothing to drain: node:http ends its
        // stream once the answer is sent, as for any request left unread.
        if (!overLimit && (declared !== undefined || req.headers['transfer-encoding'] !== undefined))
          discardBody(req, bodyLimit);
        finish(req, res, toApiRequest(req), overLimit, started);
        return;
      }
      readBody(req, bodyLimit, (body, tooLarge) => {
        const request = toApiRequest(req);
        if (tooLarge) request.bodyTooLarge = true;
        else request.body = body;
        finish(req, res, request, tooLarge, started);
      });
    },
  );
  server.on('clientError', answerClientError);
  // `Expect: 100-continue` (RFC 9110 §10.1.1): invite the body only when it fits; otherwise the 413 comes first.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers['content-length']) > bodyLimit)) res.writeContinue();
    server.emit('request', req, res);
  });
  server.keepAliveTimeout = keepAliveMs;
  return server;
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    ErrorCode.headersTooLarge,
    'request headers are too large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', ErrorCode.requestTimeout, 'the request was not received in time'],
  default: [400, 'Bad Request', ErrorCode.malformedRequest, 'the request is not valid HTTP/1.1'],
};

/** Requests node:http cannot parse, or that time out, still get an Error body rather than a bare close. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // null once a response has been detached from the socket (a finished keep-alive exchange), undefined before any.
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
  // A body that never ends (or drips) times out after its request was handed over: it still gets its 408,
  // as long as nothing of an answer has gone out.
  const unanswered = pending === undefined || (!pending.headersSent && error.code === 'ERR_HTTP_REQUEST_TIMEOUT');
  if (!socket.writable || !unanswered) {
    socket.destroy();
    return;
  }
  if (pending !== undefined) (pending as ServerResponse & { [TIMED_OUT]?: boolean })[TIMED_OUT] = true;
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? CLIENT_ERRORS.default!;
  const body = JSON.stringify({ code, message, status });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  // end() alone keeps the socket until the peer closes its side: a client that never reads would hold it for ever.
  // The grace lets a well-behaved client read the answer before a reset could discard it.
  setTimeout(() => socket.destroy(), CLIENT_ERROR_GRACE_MS).unref();
}

/** How long a socket answered by {@link answerClientError} may stay open for its peer to read the answer. */
const CLIENT_ERROR_GRACE_MS = 500;

function toApiRequest(req: IncomingMessage): ApiRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
}

/** `fetch`'s answer; a throw or a rejection, a bug rather than bad input, becomes a 500 Error rather than a dropped connection. */
function fetchSafely(fetch: Fetch, request: ApiRequest): Answer {
  try {
    const answer = fetch(request);
    return answer instanceof Promise ? answer.catch(internalError) : answer;
  } catch {
    return internalError();
  }
}

function internalError(): ApiResponse {
  return errorResponse(500, ErrorCode.internalError, 'internal error in the mock');
}

/** Drops a body no handler reads; a chunked one that grows past `limit` costs the client its connection. */
function discardBody(req: IncomingMessage, limit: number): void {
  if (req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return;
  }
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) req.socket.destroy();
  });
}

/** Reads the body; stops reading as soon as it is known to exceed `limit`. */
function readBody(req: IncomingMessage, limit: number, done: (body: Buffer, tooLarge: boolean) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    done(Buffer.alloc(0), true);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finished = true;
      req.pause();
      done(Buffer.alloc(0), true);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), false);
  });
  req.on('error', () => {
    finished = true;
  });
}

/** Marks a response whose request timed out and was answered 408 on the socket: nothing more is written. */
const TIMED_OUT = Symbol('timed out');

function send(res: ServerResponse, response: ApiResponse, closeAfter: boolean): void {
  if (res.destroyed || (res as ServerResponse & { [TIMED_OUT]?: boolean })[TIMED_OUT]) return;
  const headers: Record<string, string | number> = response.headers;
  const bytes = response.bytes;
  if (response.body.length > 0) headers['content-length'] = bytes ? bytes.length : Buffer.byteLength(response.body);
  // The rest of an over-limit body is never read, so the connection cannot be reused.
  if (closeAfter) headers.connection = 'close';
  res.writeHead(response.status, headers);
  // Bytes the mock kept (a listing of an unchanged store) go out as they are: nothing to measure or encode.
  res.end(bytes ?? response.body);
  if (closeAfter) res.on('finish', () => res.socket?.destroySoon());
}

/** Carries out a response's fault on its connection (the contract is documented on ApiResponse). */
function carryOut(res: ServerResponse, response: ApiResponse, hangMs: number): void {
  const socket = res.socket;
  if (res.destroyed || !socket) return;
  switch (response.fault) {
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'close':
      socket.end();
      return;
    case 'truncated': {
      const body = Buffer.from(response.body);
      res.writeHead(response.status, { ...response.headers, 'content-length': body.length, connection: 'close' });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy());
      return;
    }
    case 'hang': {
      // Nothing is sent; the connection ends when the client gives up, the server closes, or the request timeout passes.
      const timer = setTimeout(() => socket.destroy(), hangMs);
      socket.once('close', () => clearTimeout(timer));
      return;
    }
  }
}
