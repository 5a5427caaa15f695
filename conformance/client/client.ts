/**
 * The suite's only network code: sends one request through an undici
 * Dispatcher with a per-request timeout, reads at most a capped body, never
 * follows redirects, waits out 429/503 within the run's budget (throttle.ts),
 * and captures the exchange as the server sent it: the checks read it whole,
 * and the key is hidden only where the report is written (redact-report.ts).
 * The captured request never holds the credentials of its Authorization header.
 */

import type { Dispatcher } from 'undici';
import { REDACTED } from '../../guard/redact.ts';
import { EXCHANGE_ERROR_CODES } from '../errors.ts';
import type { CaseRequest, CreatedRecord, Exchange, ExchangeResponse } from '../types.ts';
import { wireBody } from './bytes.ts';
import type { RunHistory } from './history.ts';
import { NEAR_KEY_WORDS, nearKey } from './near-key.ts';
import { PROXY_ANSWERED, type ProxyChoice, proxyOwnAnswer, shownProxy, tunnelRefusal } from './proxy.ts';
import { BASIC_USER } from './redact.ts';
import { createThrottle, RATE_LIMITED, type Throttle, type ThrottleOptions, type ThrottleStats } from './throttle.ts';
import { undici } from './undici.ts';

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
  /**
   * Send every request through this proxy; not with `dispatcher`. An http: target's requests go to an http: proxy
   * in absolute form (as curl's and browsers' do: proxies that allow CONNECT only to 443 forward them); an https:
   * target's go through a CONNECT tunnel. An answer the proxy made itself is marked {@link PROXY_ANSWERED}.
   */
  proxy?: ProxyChoice;
  /** TLS to the target: a private CA to trust, a client certificate and its key (PEM); not with `dispatcher`. */
  tls?: TlsOptions;
  /** Headers added to every request (names in lowercase); their values are secrets and are captured as [REDACTED]. */
  headers?: Readonly<Record<string, string>>;
  /** Retry budget and rate cap (see throttle.ts). */
  throttle?: ThrottleOptions;
  /** Told of every exchange on the wire, retried ones included, with when it started (ms since the epoch). */
  onExchange?: (exchange: Exchange, startedAt: number, retried: boolean) => void;
  /** Told of each exchange `send` returns, in order: what the run's requests did to the server's state. */
  history?: RunHistory;
  /**
   * The run's end (`maxTimeMs`): when it aborts, requests in flight and waits for a retry stop at once, and every
   * later request is answered without being sent, with the error {@link RUN_ENDED} and the abort's reason.
   */
  endSignal?: AbortSignal;
  /** Send GET requests only (a read-only run): any other method is a bug of the suite, thrown, never sent. */
  getOnly?: boolean;
}

/** The error code of an exchange the run's end cut short or never sent. */
export const RUN_ENDED = EXCHANGE_ERROR_CODES.runEnded;

/** TLS material for the target, as PEM text. */
export interface TlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
}

/** The Agent the client sends through when none is injected: direct, or through the run's proxy; the same limits either way. */
function makeDispatcher(options: ClientOptions, timeoutMs: number): Dispatcher {
  const tls = options.tls ?? {};
  const limits = {
    connections: options.connections ?? 8,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  if (options.proxy)
    return new undici.ProxyAgent({
      ...limits,
      uri: options.proxy.url,
      // CONNECT only for https: targets (undici keeps it for every target of an https: proxy).
      proxyTunnel: false,
      // The pool to the proxy for absolute-form requests is made with this factory too: the same limits.
      factory: (origin, opts) => new undici.Pool(origin, { ...limits, ...opts }),
      requestTls: { ...tls, timeout: timeoutMs },
      proxyTls: { timeout: timeoutMs },
    });
  return new undici.Agent({ ...limits, connect: { ...tls, timeout: timeoutMs } });
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
  /** The first {@link MAX_READ_BACK} of those with a safe integer id: what was sent, to read them back at the end. */
  creations: CreatedRecord[];
  /** Requests that got no response at all (timeout, refused, reset, not HTTP), and the first such error. */
  transportFailed: number;
  firstTransportError?: { code: string; message: string };
}

/** How many created animals a run reads back (each one GET): bounded, so a long generated run costs at most this. */
const MAX_READ_BACK = 200;
/** A sent body longer than this is not kept for the read-back (its animal is still fetched and checked). */
const MAX_KEPT_SENT = 16 * 1024;

/** Sends requests against one base URL. */
export interface Client {
  /** Sends `request` under the base URL's path, or (`fromOrigin`) under the host's root. */
  send(request: CaseRequest, options?: { fromOrigin?: boolean }): Promise<Exchange>;
  /** One try of `request`, outside the run: no retry, not counted, not logged (waiting for the target to come up). */
  probe(request: CaseRequest): Promise<Exchange>;
  readonly stats: ClientStats;
  /** 429/503 answers, retries and time waited. */
  readonly throttleStats: ThrottleStats;
  close(): Promise<void>;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR']);

/** Makes a client for `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const owned = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? makeDispatcher(options, timeoutMs);
  const stats: ClientStats = {
    requests: 0,
    keyRequests: 0,
    keyRejected: 0,
    created: 0,
    createdIds: [],
    creations: [],
    transportFailed: 0,
  };
  const throttle = createThrottle(options.throttle);
  const extra = options.headers ?? {};
  const end = options.endSignal;
  const ended = watchEnd(end);
  const proxy = options.proxy && { shown: shownProxy(options.proxy.url), forwards: forwards(base, options.proxy) };
  const attempt = (request: CaseRequest, root: boolean): Promise<Exchange> =>
    sendOnce({
      request,
      apiKey: options.apiKey,
      extra,
      base,
      prefix: root ? '' : prefix,
      dispatcher,
      timeoutMs,
      maxBodyBytes,
      end,
      ended,
      proxy,
    });

  async function send(request: CaseRequest, sendOptions: { fromOrigin?: boolean } = {}): Promise<Exchange> {
    const root = sendOptions.fromOrigin === true;
    if (options.getOnly && request.method !== 'GET')
      throw new Error(`read-only: ${request.method} ${request.path} was not sent (a read-only run sends GET only)`);
    const url = base.origin + (root ? '' : prefix) + request.path;
    if (end?.aborted) return unsent(request, url, { code: RUN_ENDED, message: reasonOf(end) });
    // Through a proxy the target's form is the proxy's to choose: what the server would see is not this request.
    if (request.absoluteForm && proxy)
      return unsent(request, url, {
        code: EXCHANGE_ERROR_CODES.notSent,
        message: `not sent: through the proxy ${proxy.shown} the suite's proxy agent forms every target itself, so none goes out in absolute form`,
      });
    const usesKey = request.auth === undefined || request.auth === 'key';
    stats.requests++;
    if (usesKey) stats.keyRequests++;
    const ex = await retrying(throttle, () => attempt(request, root), options.onExchange, end, ended);
    // Cut by the run's end, not by the server: neither a transport failure nor an answer.
    if (ex.error?.code === RUN_ENDED) return ex;
    if (!ex.response) {
      stats.transportFailed++;
      stats.firstTransportError ??= ex.error;
    } else if (usesKey && ex.response.status === 401) stats.keyRejected++;
    if (request.method === 'POST' && ex.response && ex.response.status >= 200 && ex.response.status < 300)
      noteCreated(stats, ex);
    options.history?.note(ex);
    return ex;
  }

  return {
    send,
    probe: (request) => attempt(request, false),
    stats,
    throttleStats: throttle.stats,
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}

/** Sends through `once` until the throttle stops asking for a retry; the last exchange carries the count. */
async function retrying(
  throttle: Throttle,
  once: () => Promise<Exchange>,
  onExchange: ClientOptions['onExchange'],
  end: AbortSignal | undefined,
  ended: EndWatch,
): Promise<Exchange> {
  let retries = 0;
  let waitedMs = 0;
  for (;;) {
    await throttle.turn();
    const startedAt = performance.timeOrigin + performance.now();
    const ex = await once();
    const res = ex.response;
    const decision = res && !ex.error ? throttle.decide(res.status, res.headers['retry-after'], retries) : undefined;
    const note = retries > 0 ? { retries: { count: retries, waitedMs } } : {};
    if (decision === undefined || 'exhausted' in decision) {
      const last: Exchange =
        decision === undefined
          ? { ...ex, ...note }
          : { ...ex, ...note, error: { code: RATE_LIMITED, message: decision.exhausted } };
      onExchange?.(last, startedAt, false);
      return last;
    }
    onExchange?.(ex, startedAt, true);
    await sleep(decision.retryInMs, ended);
    if (end?.aborted) return { ...ex, ...note, error: { code: RUN_ENDED, message: reasonOf(end) } };
    retries++;
    waitedMs += decision.retryInMs;
  }
}

interface Attempt {
  request: CaseRequest;
  apiKey: string;
  extra: Readonly<Record<string, string>>;
  base: URL;
  prefix: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxBodyBytes: number;
  end: AbortSignal | undefined;
  /** Tells of the run's end through one listener for all requests in flight. */
  ended: EndWatch;
  /** The run's proxy as shown, and whether it forwards the requests (absolute form) rather than tunnel them. */
  proxy: { shown: string; forwards: boolean } | undefined;
}

/** Whether requests to `base` go to the proxy in absolute form, so that the proxy may answer them itself. */
function forwards(base: URL, proxy: ProxyChoice): boolean {
  return base.protocol === 'http:' && URL.canParse(proxy.url) && new URL(proxy.url).protocol === 'http:';
}

/** The error of an answer the run's proxy made itself, or undefined when it is the server's. */
function proxyAnswered(a: Attempt, status: number, headers: Record<string, string>): Exchange['error'] {
  const sign = a.proxy?.forwards ? proxyOwnAnswer(status, headers) : undefined;
  if (sign === undefined) return undefined;
  return { code: PROXY_ANSWERED, message: `the proxy ${a.proxy!.shown} answered ${status} itself (${sign})` };
}

/** Runs what is registered with it once when the run ends; `add` gives back how to take it off again. */
interface EndWatch {
  add(onEnd: () => void): () => void;
}

/**
 * One listener on the run's end signal for every request and wait in flight, however many a run has at once (a
 * listener each went past EventTarget's limit of ten under load, and Node then warned on stderr). What is added
 * after the end runs at once.
 */
function watchEnd(end: AbortSignal | undefined): EndWatch {
  const waiting = new Set<() => void>();
  end?.addEventListener(
    'abort',
    () => {
      for (const onEnd of [...waiting]) onEnd();
      waiting.clear();
    },
    { once: true },
  );
  return {
    add(onEnd) {
      if (end?.aborted) {
        onEnd();
        return () => {};
      }
      waiting.add(onEnd);
      return () => waiting.delete(onEnd);
    },
  };
}

/** Waits `ms`, or less when the run ends first. */
function sleep(ms: number, ended: EndWatch): Promise<void> {
  return new Promise((resolve) => {
    let stop = (): void => {};
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    stop = ended.add(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function reasonOf(end: AbortSignal): string {
  return end.reason instanceof Error ? end.reason.message : String(end.reason);
}

/** The exchange of a request the run's end stopped before it was sent. */
/** The exchange of a request that never went out (the run had ended, or it cannot go as asked), and why. */
function unsent(request: CaseRequest, url: string, error: NonNullable<Exchange['error']>): Exchange {
  const form = request.absoluteForm ? { absoluteForm: true as const } : {};
  return { request: { method: request.method, url, headers: {}, ...form }, error, durationMs: 0 };
}

/** One request and what came back, or why nothing usable came back. */
async function sendOnce(a: Attempt): Promise<Exchange> {
  const { request, timeoutMs, maxBodyBytes } = a;
  const headers = { ...a.extra, ...requestHeaders(request, a.apiKey) };
  const url = a.base.origin + a.prefix + request.path;
  const path = request.absoluteForm ? url : a.prefix + request.path;
  const started = performance.now();
  const captured = {
    method: request.method,
    url,
    headers: hideCredentials(headers, a.extra, request.auth),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.absoluteForm ? { absoluteForm: true as const } : {}),
  };
  let timedOut = false;
  const call = dispatchCapped(
    a.dispatcher,
    {
      origin: a.base.origin,
      path,
      method: request.method,
      headers,
      body: wireBody(request.body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    },
    maxBodyBytes,
  );
  // Cut by its own timer or by the run's end.
  const timer = setTimeout(() => {
    timedOut = true;
    call.abort(new DOMException(`no complete response within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const stopWatching = a.ended.add(() => call.abort(a.end?.reason));
  try {
    const { status, headers: raw, text, bytes, tooLarge } = await call.done;
    const response = buildResponse(status, raw, text, bytes);
    const error =
      proxyAnswered(a, response.status, response.headers) ??
      (tooLarge
        ? {
            code: EXCHANGE_ERROR_CODES.bodyTooLarge,
            message: `response body exceeds ${maxBodyBytes} bytes; stopped reading`,
          }
        : undefined);
    return { request: captured, response, ...(error ? { error } : {}), durationMs: performance.now() - started };
  } catch (err) {
    return {
      request: captured,
      error: a.end?.aborted
        ? { code: RUN_ENDED, message: reasonOf(a.end) }
        : (tunnelRefused(a, err) ?? proxyClosed(a, err) ?? describeError(err, timedOut, timeoutMs)),
      durationMs: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    stopWatching();
  }
}

/** What one dispatch brought back: the final status, the headers as undici parses them, the body read up to the cap. */
interface CappedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  bytes: number;
  tooLarge: boolean;
}

/**
 * One request through `dispatcher.dispatch` with a handler of undici's callback protocol (which undici 6 and 7
 * and Node's own undici all take), the body collected in the handler up to `max` bytes: past it the connection is
 * dropped rather than drained. No stream, no AbortSignal per request: `abort` cuts the request (its timer, the run's
 * end), before or after it connected.
 */
function dispatchCapped(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  max: number,
): { done: Promise<CappedAnswer>; abort(reason?: unknown): void } {
  let cut: ((reason: Error) => void) | undefined;
  let pending: Error | undefined;
  let settle!: (error: unknown, answer?: CappedAnswer) => void;
  const done = new Promise<CappedAnswer>((resolve, reject) => {
    let settled = false;
    settle = (error, answer) => {
      if (settled) return;
      settled = true;
      if (answer) resolve(answer);
      else reject(error);
    };
  });
  let status = 0;
  let headers: Record<string, string | string[] | undefined> = {};
  const chunks: Buffer[] = [];
  let bytes = 0;
  const text = (): string => Buffer.concat(chunks).toString('utf8');
  const handler = {
    onConnect(abort: (reason?: Error) => void) {
      cut = abort;
      if (pending) abort(pending);
    },
    onHeaders(statusCode: number, rawHeaders: Buffer[]) {
      // 1xx answers come before the final one: only the final one is the answer.
      if (statusCode < 200) return true;
      status = statusCode;
      headers = undici.util.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>;
      return true;
    },
    onData(chunk: Buffer) {
      bytes += chunk.length;
      if (bytes > max) {
        // The count is what was kept, since how far past the cap the last chunk reached depends on chunk sizes.
        chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (bytes - max))));
        settle(undefined, { status, headers, text: text(), bytes: max, tooLarge: true });
        cut?.(new Error(`response body exceeds ${max} bytes`));
        return false;
      }
      chunks.push(chunk);
      return true;
    },
    onComplete() {
      settle(undefined, { status, headers, text: text(), bytes, tooLarge: false });
    },
    onError(error: Error) {
      settle(error);
    },
  };
  try {
    dispatcher.dispatch(options, handler as unknown as Dispatcher.DispatchHandler);
  } catch (error) {
    settle(error);
  }
  return {
    done,
    abort(reason) {
      const error = reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
      if (cut) cut(error);
      else pending = error;
      settle(error);
    },
  };
}

/** Whether the exchange's request carried the run's key as `Bearer <key>` (as captured, the key hidden). */
export function sentTheKey(exchange: Exchange): boolean {
  return exchange.request.headers.authorization === `Bearer ${REDACTED}`;
}

function requestHeaders(request: CaseRequest, apiKey: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = request.auth ?? 'key';
  if (auth === 'key') headers.authorization = `Bearer ${apiKey}`;
  else if (auth === 'lowercase') headers.authorization = `bearer ${apiKey}`;
  else if (auth === 'prefixedScheme') headers.authorization = `xbearer ${apiKey}`;
  else if (auth === 'bare') headers.authorization = apiKey;
  else if (auth === 'colon') headers.authorization = `Bearer:${apiKey}`;
  else if (auth === 'basic')
    headers.authorization = `Basic ${Buffer.from(`${BASIC_USER}:${apiKey}`).toString('base64')}`;
  else if (typeof auth === 'object' && 'nearKey' in auth)
    headers.authorization = `Bearer ${nearKey(apiKey, auth.nearKey) ?? apiKey}`;
  else if (auth !== 'none') headers.authorization = auth.authorization;
  if (request.body !== undefined && request.contentType !== null)
    headers['content-type'] = request.contentType ?? 'application/json';
  return headers;
}

/**
 * The headers the suite sent, with the user's own headers' values replaced, and the credentials part of
 * Authorization when it carries the key or a near key (which says which, never the key): an Authorization a case
 * wrote itself (a wrong key `conformance-<run>-wrong-key`, an empty token) holds no secret and is kept as sent, so
 * its curl line reproduces it.
 */
function hideCredentials(
  headers: Record<string, string>,
  extra: Readonly<Record<string, string>>,
  auth: CaseRequest['auth'],
): Record<string, string> {
  const near = typeof auth === 'object' && 'nearKey' in auth ? ` (${NEAR_KEY_WORDS[auth.nearKey]})` : '';
  const fromKey = typeof auth !== 'object' || near !== '';
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'authorization' && fromKey) out[name] = hiddenAuthorization(value, auth, near);
    else out[name] = Object.hasOwn(extra, name) ? REDACTED : value;
  }
  return out;
}

/**
 * An Authorization made from the key, its credentials hidden: the scheme kept where there is one (`Basic
 * [REDACTED]`, `Bearer:[REDACTED]`), the whole value hidden otherwise (the key alone, and any form not known here).
 */
function hiddenAuthorization(value: string, auth: CaseRequest['auth'], near: string): string {
  if (auth === 'colon') return `Bearer:${REDACTED}`;
  const m = auth === 'bare' ? null : /^(\S+)( +)(.+)$/.exec(value);
  return m ? `${m[1]}${m[2]}${REDACTED}${near}` : REDACTED;
}

/** An ExchangeResponse from a status, headers and body text, parsed as the client parses what it reads. */
export function buildResponse(
  status: number,
  raw: Record<string, string | string[] | undefined>,
  text: string,
  bytes: number,
): ExchangeResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const response: ExchangeResponse = { status, headers, body: text, bytes };
  if (text.trim() === '') return response;
  if (countContainers(text) > MAX_PARSED_CONTAINERS)
    response.jsonError = `holds more than ${MAX_PARSED_CONTAINERS} objects and arrays, far more than any Petstore answer (a full page is ${MAX_PAGE_CONTAINERS}): not parsed`;
  else {
    try {
      response.json = JSON.parse(text) as unknown;
    } catch {
      // Not the parser's message: V8's and JavaScriptCore's differ, and the report must read the same on Node and Bun.
      response.jsonError = `not JSON text, it begins ${JSON.stringify(text.trimStart().slice(0, 24))}`;
    }
  }
  return response;
}

/**
 * Objects and arrays a JSON answer may hold before the suite declines to parse it. A page of the listing, the
 * largest answer the interface has, is at most 100 pets in one array; a server controls the rest, and 350,000
 * empty objects in a 1 MiB answer parse to tens of megabytes each.
 */
const MAX_PARSED_CONTAINERS = 10_000;
const MAX_PAGE_CONTAINERS = 101;

/** Counts `{` and `[` outside strings, stopping once past {@link MAX_PARSED_CONTAINERS}; one pass, no allocation. */
function countContainers(text: string): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if ((c === 0x7b || c === 0x5b) && ++count > MAX_PARSED_CONTAINERS) return count;
  }
  return count;
}

/** The NewPet fields of a create's answer (bounded: three values, a long name kept as the answer gave it). */
function answeredFields(json: unknown): Record<string, unknown> {
  const o = json as Record<string, unknown>;
  return { name: o.name, categoryId: o.categoryId, status: o.status };
}

function noteCreated(stats: ClientStats, ex: Exchange): void {
  stats.created++;
  const id = (ex.response?.json as { id?: unknown } | undefined)?.id;
  if (typeof id === 'number') stats.createdIds.push(id);
  if (!Number.isSafeInteger(id) || stats.creations.length >= MAX_READ_BACK) return;
  const body = ex.request.body;
  stats.creations.push({
    id: id as number,
    ...(body !== undefined && body.length <= MAX_KEPT_SENT ? { sent: body } : {}),
    answered: answeredFields(ex.response?.json),
    request: `POST ${ex.request.url}`,
    order: stats.created,
  });
}

/** A CONNECT the run's proxy refused (not with 407, which asks for credentials): the proxy's answer, not the server's. */
function tunnelRefused(a: Attempt, err: unknown): Exchange['error'] {
  const status = a.proxy && tunnelRefusal(String((err as Error | undefined)?.message));
  if (!status || status === '407') return undefined;
  return {
    code: PROXY_ANSWERED,
    message: `the proxy ${a.proxy!.shown} answered ${status} itself to CONNECT ${a.base.host}: it opened no connection`,
  };
}

/** Codes of a connection closed or reset with no answer read. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * A connection closed with no answer by a proxy that forwards the requests (absolute form): the suite's connection
 * ends at the proxy, so the close is the proxy's (a server's failure reaches the client as the proxy's 502), and
 * the request is not judged. Undefined otherwise: without a proxy, or through a tunnel, the close is the server's.
 */
function proxyClosed(a: Attempt, err: unknown): Exchange['error'] {
  if (!a.proxy?.forwards) return undefined;
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  if (code === undefined || !CLOSED_CODES.has(code)) return undefined;
  return {
    code: PROXY_ANSWERED,
    message: `the proxy ${a.proxy.shown} closed the connection without an answer (${code})`,
  };
}

function describeError(err: unknown, aborted: boolean, timeoutMs: number): { code: string; message: string } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (aborted || e.name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return { code: EXCHANGE_ERROR_CODES.timeout, message: `no complete response within ${timeoutMs} ms` };
  }
  const message = [e.message, e.cause?.message].filter(Boolean).join(': ') || String(err);
  // undici's parser errors carry no code; what they mean is that the target does not speak HTTP/1.1.
  const fallback = e.name === 'HTTPParserError' ? EXCHANGE_ERROR_CODES.notHttp : EXCHANGE_ERROR_CODES.requestFailed;
  return { code: code ?? fallback, message };
}
