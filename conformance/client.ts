/**
 * The suite's only network code: sends one request through an undici
 * Dispatcher with a per-request timeout, reads at most a capped body, never
 * follows redirects, and captures the exchange with the API key redacted.
 */
import { Agent, type Dispatcher } from 'undici';
import { BASIC_USER, createRedactor, REDACTED, type Redactor, redactDeep } from './redact.ts';
import type { CaseRequest, Exchange, ExchangeResponse } from './types.ts';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Base URL ending in the version segment, e.g. `https://host/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The HTTP client; an undici Agent is made (and closed) when absent. */
  dispatcher?: Dispatcher;
  /** Per-request limit for the whole exchange, headers and body (default 10000). */
  timeoutMs?: number;
  /** Bodies longer than this fail the exchange (default 1 MiB). */
  maxBodyBytes?: number;
  /** Connections the default Agent may open per origin. */
  connections?: number;
}

/** What the client has seen, for the report and the key-rejected test. */
export interface ClientStats {
  requests: number;
  /** Requests sent with the run's key, and how many of them got 401. */
  keyRequests: number;
  keyRejected: number;
  /** Animals created (any 2xx answer to `POST /pets`) and their ids. */
  created: number;
  createdIds: number[];
}

/** Sends requests against one base URL. */
export interface Client {
  send(request: CaseRequest): Promise<Exchange>;
  readonly stats: ClientStats;
  readonly redact: Redactor;
  close(): Promise<void>;
}

/** Error codes that mean the target cannot be reached at all. */
export const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR']);

/** Makes a client for `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const owned = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connections: options.connections ?? 8,
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  const redact = createRedactor([options.apiKey]);
  const stats: ClientStats = { requests: 0, keyRequests: 0, keyRejected: 0, created: 0, createdIds: [] };

  async function send(request: CaseRequest): Promise<Exchange> {
    const headers = requestHeaders(request, options.apiKey);
    const path = prefix + request.path;
    const started = performance.now();
    const captured = {
      method: request.method,
      url: base.origin + path,
      headers: redactHeaders(headers, redact),
      ...(request.body === undefined ? {} : { body: redact(request.body) }),
    };
    const usesKey = request.auth === undefined || request.auth === 'key';
    stats.requests++;
    if (usesKey) stats.keyRequests++;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await dispatcher.request({
        origin: base.origin,
        path,
        method: request.method,
        headers,
        body: request.body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const { text, bytes, tooLarge } = await readCapped(res.body, maxBodyBytes);
      const response = buildResponse(res.statusCode, res.headers, text, bytes, redact);
      if (usesKey && res.statusCode === 401) stats.keyRejected++;
      if (request.method === 'POST' && res.statusCode >= 200 && res.statusCode < 300) noteCreated(stats, response.json);
      const error = tooLarge
        ? { code: 'PETSTORE_BODY_TOO_LARGE', message: `response body exceeds ${maxBodyBytes} bytes; stopped reading` }
        : undefined;
      return { request: captured, response, ...(error ? { error } : {}), durationMs: performance.now() - started };
    } catch (err) {
      return {
        request: captured,
        error: describeError(err, signal.aborted, timeoutMs, redact),
        durationMs: performance.now() - started,
      };
    }
  }

  return {
    send,
    stats,
    redact,
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}

function requestHeaders(request: CaseRequest, apiKey: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = request.auth ?? 'key';
  if (auth === 'key') headers.authorization = `Bearer ${apiKey}`;
  else if (auth === 'lowercase') headers.authorization = `bearer ${apiKey}`;
  else if (auth === 'basic')
    headers.authorization = `Basic ${Buffer.from(`${BASIC_USER}:${apiKey}`).toString('base64')}`;
  else if (auth !== 'none') headers.authorization = auth.authorization;
  if (request.body !== undefined && request.contentType !== null)
    headers['content-type'] = request.contentType ?? 'application/json';
  return headers;
}

function redactHeaders(headers: Record<string, string>, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // The credentials part of Authorization is never shown, whichever key it holds.
    const m = name === 'authorization' ? /^(\S+)( +)(.+)$/.exec(value) : null;
    out[name] = m ? `${m[1]}${m[2]}${REDACTED}` : redact(value);
  }
  return out;
}

async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void },
  max: number,
): Promise<{ text: string; bytes: number; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > max) {
      // Stop reading: the connection is dropped rather than drained.
      chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (bytes - max))));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), bytes, tooLarge: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, tooLarge: false };
}

function buildResponse(
  status: number,
  raw: Record<string, string | string[] | undefined>,
  text: string,
  bytes: number,
  redact: Redactor,
): ExchangeResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined)
      headers[redact(name.toLowerCase())] = redact(Array.isArray(value) ? value.join(', ') : value);
  }
  const response: ExchangeResponse = { status, headers, body: redact(text), bytes };
  if (text.trim() !== '') {
    try {
      response.json = redactDeep(JSON.parse(text) as unknown, redact);
    } catch (err) {
      response.jsonError = (err as Error).message;
    }
  }
  return response;
}

function noteCreated(stats: ClientStats, json: unknown): void {
  stats.created++;
  const id = (json as { id?: unknown } | undefined)?.id;
  if (typeof id === 'number') stats.createdIds.push(id);
}

function describeError(
  err: unknown,
  aborted: boolean,
  timeoutMs: number,
  redact: Redactor,
): { code: string; message: string } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (aborted || e.name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return { code: 'PETSTORE_TIMEOUT', message: `no complete response within ${timeoutMs} ms` };
  }
  const message = [e.message, e.cause?.message].filter(Boolean).join(': ') || String(err);
  return { code: code ?? 'PETSTORE_REQUEST_FAILED', message: redact(message) };
}
