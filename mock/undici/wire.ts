/**
 * Translation between undici's dispatch protocol and the core's plain
 * objects: request headers and body in, and a response out to a handler of
 * either style (undici 7's controller methods, or the callbacks that undici 6,
 * Node 20's own fetch and `undici.request` use).
 */
import { STATUS_CODES } from 'node:http';
import { type Dispatcher, errors } from 'undici';
import { BODY_LIMIT } from '../core/adapter.ts';

type Headers = Record<string, string | string[] | undefined>;

/** undici's header shapes (an object, a flat `[name, value, ...]` list, pairs, or any iterable of pairs) as lower-case names. */
export function headerRecord(raw: Dispatcher.DispatchOptions['headers']): Headers {
  const out: Headers = {};
  const add = (name: unknown, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = String(name).toLowerCase();
    const values = (Array.isArray(value) ? value : [value]).map(String);
    const before = out[key];
    out[key] = before === undefined ? (values.length === 1 ? values[0] : values) : [before, values].flat();
  };
  if (raw === undefined || raw === null) return out;
  if (Array.isArray(raw)) {
    if (raw.length > 0 && Array.isArray(raw[0]))
      for (const [name, value] of raw as unknown as unknown[][]) add(name, value);
    else for (let i = 0; i < raw.length; i += 2) add(raw[i], raw[i + 1]);
  } else if (typeof (raw as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of raw as Iterable<[unknown, unknown]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(raw)) add(name, value);
  }
  return out;
}

/** The request body as bytes, or `tooLarge` once it passes the limit (the rest is not read). */
export async function readBody(body: unknown): Promise<{ bytes?: Uint8Array; tooLarge: boolean }> {
  if (body === undefined || body === null) return { tooLarge: false };
  if (typeof body === 'string') return limited(Buffer.from(body));
  if (body instanceof Uint8Array) return limited(body);
  if (body instanceof ArrayBuffer) return limited(new Uint8Array(body));
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > BODY_LIMIT) return { tooLarge: true };
      chunks.push(bytes);
    }
    return { bytes: Buffer.concat(chunks, size), tooLarge: false };
  }
  // FormData, Blob and the like: let the Fetch API serialise them.
  return limited(new Uint8Array(await new Response(body as ConstructorParameters<typeof Response>[0]).arrayBuffer()));
}

function limited(bytes: Uint8Array): { bytes?: Uint8Array; tooLarge: boolean } {
  return bytes.byteLength > BODY_LIMIT ? { tooLarge: true } : { bytes, tooLarge: false };
}

/** One answer to deliver: status, headers, body (empty for HEAD, 204 and 304). */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The `truncated` fault: deliver this many bytes of the body, then fail as a closed connection would. */
  cutAt?: number;
}

/** The error a connection closed by the other side gives: undici's own. */
export function closedByPeer(): Error {
  return new errors.SocketError('other side closed');
}

/** Talks to a handler in whichever protocol it speaks; `abort` is how the caller cancels (its timeout or signal). */
interface HandlerPort {
  start(abort: (reason?: Error) => void): void;
  respond(response: WireResponse): void;
  fail(error: Error): void;
}

/** A port for `handler`, which may use undici 7's controller methods or the older callbacks. */
export function portFor(handler: Dispatcher.DispatchHandler): HandlerPort {
  if (typeof handler.onRequestStart === 'function' || typeof handler.onResponseStart === 'function') {
    let controller: Dispatcher.DispatchController;
    return {
      start: (abort) => {
        controller = makeController(abort);
        handler.onRequestStart?.(controller, {});
      },
      respond: ({ status, headers, body, cutAt }) => {
        handler.onResponseStart?.(controller, status, headers, STATUS_CODES[status] ?? '');
        const sent = cutAt === undefined ? body : body.subarray(0, cutAt);
        if (sent.length > 0 && !controller.aborted) handler.onResponseData?.(controller, sent);
        if (controller.aborted) return;
        if (cutAt === undefined) handler.onResponseEnd?.(controller, {});
        else setTimeout(() => handler.onResponseError?.(controller, closedByPeer()), 1);
      },
      fail: (error) => handler.onResponseError?.(controller, error),
    };
  }
  return {
    start: (abort) => handler.onConnect?.(abort),
    respond: ({ status, headers, body, cutAt }) => {
      handler.onResponseStarted?.();
      const raw = Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value, 'latin1')]);
      handler.onHeaders?.(status, raw, () => {}, STATUS_CODES[status] ?? '');
      const sent = cutAt === undefined ? body : body.subarray(0, cutAt);
      if (sent.length > 0) handler.onData?.(sent);
      if (cutAt === undefined) handler.onComplete?.([]);
      // As a socket would: the close comes after the bytes, once the reader has them.
      else setTimeout(() => handler.onError?.(closedByPeer()), 1);
    },
    fail: (error) => handler.onError?.(error),
  };
}

function makeController(abort: (reason?: Error) => void): Dispatcher.DispatchController {
  let reason: Error | null = null;
  let aborted = false;
  return {
    get aborted() {
      return aborted;
    },
    get paused() {
      return false;
    },
    get reason() {
      return reason;
    },
    abort(error: Error) {
      if (aborted) return;
      aborted = true;
      reason = error;
      abort(error);
    },
    // The whole body is in memory and goes out in one chunk: there is nothing to pause.
    pause() {},
    resume() {},
  };
}
