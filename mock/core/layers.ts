/**
 * The mock's cross-cutting concerns (CORS, control endpoints, the journal,
 * rate limit, scenarios, Prefer, chaos, latency) are layers around the pure
 * handler: each takes the request's context and the next step, and may answer
 * itself, change the answer, or pass it on.
 */
import type { OperationInfo } from '../../spec/index.ts';
import { type OperationMatcher, operationMatcher, type RouteMatch } from '../../spec/match.ts';
import { queryMemo, TextMemo } from './memo.ts';
import type { ApiRequest, ApiResponse, Fault } from './responses.ts';

/** A response forced on one request, by a scenario, a `Prefer` header or chaos. */
export interface Override {
  status?: number;
  delayMs?: number;
  fault?: Fault;
  /** Who forced it, for Error messages (`Prefer: code=503`, `scenario 2`, `chaos`). */
  source: string;
}

/** What shaped an answer besides the request itself, as the journal records it. */
export interface Applied {
  /** Id of the scenario that answered. */
  scenario?: string;
  /** The `Preference-Applied` value sent. */
  preferences?: string;
  /** The status chaos answered with. */
  chaos?: number;
  /** True when the rate limit refused the request. */
  rateLimited?: boolean;
}

/** Whether anything besides the request shaped the answer: a field of {@link Applied} is set (read field by field, not walked). */
export function anyApplied(applied: Applied): boolean {
  return (
    applied.scenario !== undefined ||
    applied.preferences !== undefined ||
    applied.chaos !== undefined ||
    applied.rateLimited !== undefined
  );
}

/** Who forced an answer (a pact's `include` names them; coverage counts by them). */
export type ForcedSource = 'scenario' | 'prefer' | 'chaos' | 'rateLimit';

/** Every {@link ForcedSource}, for checks and docs. */
export const FORCED_SOURCES: readonly ForcedSource[] = ['scenario', 'prefer', 'chaos', 'rateLimit'];

/** Who forced the answer, or undefined when the client's request alone shaped it: coverage and the Pact recorder read this one. */
export function forcedBy(context: RequestContext): ForcedSource | undefined {
  const { applied, override } = context;
  if (applied.rateLimited) return 'rateLimit';
  if (applied.scenario !== undefined) return 'scenario';
  if (applied.chaos !== undefined) return 'chaos';
  if (override && (override.status !== undefined || override.fault !== undefined)) return 'prefer';
  return undefined;
}

/** One request on its way through the layers. */
export interface RequestContext {
  readonly request: ApiRequest;
  /** The path in origin form, without the query (`/v1/pets/7`). */
  readonly path: string;
  /** The raw query, without `?` (empty when none). */
  readonly query: string;
  /** True under the API's base path: only these get latency, chaos, limits, scenarios and the journal. */
  readonly api: boolean;
  /** The spec's route for the path, segments decoded (`/v1/%70ets` is `/v1/pets`); undefined off the API's routes. */
  readonly route: RouteMatch | undefined;
  /** The operation the method and path address (`HEAD` as `GET`), past its sunset or not: every layer reads this one. */
  readonly operation: OperationInfo | undefined;
  applied: Applied;
  override?: Override;
}

/**
 * An answer: at once, or a promise when something (a delay) makes it wait.
 * Layers stay synchronous unless they have to wait, because every promise on
 * the way costs each request a trip through the microtask queue.
 */
export type Answer = ApiResponse | Promise<ApiResponse>;

/** The rest of the chain, from one layer's point of view. */
export type Next = (context: RequestContext) => Answer;

/** One cross-cutting concern around the handler. */
export type Layer = (context: RequestContext, next: Next) => Answer;

/**
 * Answers a request: at once unless it has to wait (a delay, a database store). The one signature every adapter
 * calls, as hono's `app.fetch` is, on plain objects.
 */
export type Fetch = (request: ApiRequest) => Answer;

/** `change` applied to an answer: at once when it is ready, else when it is. */
export function thenAnswer(answer: Answer, change: (response: ApiResponse) => ApiResponse): Answer {
  return answer instanceof Promise ? answer.then(change) : change(answer);
}

/**
 * Wraps `inner` (the API's operations) in `layers`, the first outermost: the one pipeline a request takes. The
 * target is split and the route matched once, here: the layers and the operations all read the same answer.
 * `apiPath` is the path the operations are routed under once an adapter has stripped its mount's prefix (`/v1`).
 */
export function compose(layers: readonly Layer[], inner: Next, apiPath = '/v1', divert?: Divert): Fetch {
  const chain = chainOf(layers, inner);
  const contextOf = contextMaker(apiPath);
  // A target sent before is split once: its path and query come back as the strings first made, so every step after
  // (the query and route memos, the journal) finds them by identity.
  const targets = new TextMemo<Target>(256, 1024);
  const split = (sent: string): Target => targets.get(sent) ?? targets.keep(sent, splitTarget(sent));
  if (divert === undefined)
    return (request) => {
      const target = split(originForm(request.url));
      return chain(contextOf(request, target.path, target.query));
    };
  return (request) => {
    const sent = originForm(request.url);
    const target = split(sent);
    return divert(request, sent, target.path, target.query) ?? chain(contextOf(request, target.path, target.query));
  };
}

/**
 * Takes a request to another pipeline before any context is made (a session's, which makes the one context the
 * request gets), or answers undefined to leave it to this one. `target` is the request's origin form, `path` and
 * `query` its parts.
 */
export type Divert = (request: ApiRequest, target: string, path: string, query: string) => Answer | undefined;

/** `layers` around `inner`, the first outermost, taking a context already made. */
export function chainOf(layers: readonly Layer[], inner: Next): Next {
  let chain: Next = inner;
  for (const layer of [...layers].reverse()) {
    const next = chain;
    chain = (context) => layer(context, next);
  }
  return chain;
}

/** Makes a request's context from its path (`/v1/pets`) and raw query, the route matched under `apiPath`. */
export type ContextMaker = (request: ApiRequest, path: string, query: string) => RequestContext;

/** A {@link ContextMaker} with its own memo of query texts. */
export function contextMaker(apiPath = '/v1'): ContextMaker {
  const matcher = operationMatcher(apiPath);
  const under = `${apiPath}/`;
  const queries = queryMemo<string>();
  // The route of each path seen (null for none): the matcher is a function of the path alone.
  const routes = new TextMemo<RouteMatch | null>(256, 1024);
  return (request, path, query) => createContext(request, path, query, apiPath, under, matcher, queries, routes);
}

function createContext(
  request: ApiRequest,
  path: string,
  rawQuery: string,
  apiPath: string,
  under: string,
  matcher: OperationMatcher,
  queries: TextMemo<string>,
  routes: TextMemo<RouteMatch | null>,
): RequestContext {
  // A query text seen before is passed on as the string first seen: the layers and the handler look it up in maps
  // of their own (the listing's checks, coverage, the Pact recorder), which then find it by identity, its text read
  // once per request, here, not once per map. The memo compares the last text found before it hashes.
  const query = rawQuery === '' ? '' : (queries.get(rawQuery) ?? queries.keep(rawQuery, rawQuery));
  let route: RouteMatch | undefined;
  if (path.length > apiPath.length) {
    const known = routes.get(path);
    route = (known === undefined ? routes.keep(path, matcher.route(path) ?? null) : known) ?? undefined;
  }
  const operation = route?.operations.get(request.method === 'HEAD' ? 'GET' : request.method);
  // A route first: an API request (the most of them) is known without a compare of its path.
  const api = route !== undefined || path === apiPath || path.startsWith(under);
  return { request, path, query, api, route, operation, applied: {} };
}

/** A request target split: the path, and the raw query without `?` (empty when none). */
interface Target {
  path: string;
  query: string;
}

/** An origin-form target (`/v1/pets?limit=5`) as its path and its raw query, without `?`. */
export function splitTarget(target: string): Target {
  const queryAt = target.indexOf('?');
  return queryAt === -1
    ? { path: target, query: '' }
    : { path: target.slice(0, queryAt), query: target.slice(queryAt + 1) };
}

/** `http://host/v1/pets?x` (absolute form, RFC 9112 §3.2.2) as `/v1/pets?x`. */
export function originForm(url: string): string {
  // The origin form (`/v1/pets`), which every client but one talking to a proxy sends, as it is: one code unit read.
  if (url.charCodeAt(0) === SLASH) return url;
  const match = /^https?:\/\/[^/?#]*(.*)$/i.exec(url);
  return match ? match[1]! || '/' : url;
}

const SLASH = 0x2f;

/** Resolves after `ms` milliseconds (global setTimeout: in Node and in browsers). */
export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** A header's value; one sent more than once is joined with `, ` (RFC 9110 §5.3). */
export function headerValue(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Whether latency, the rate limit, scenarios, Prefer and chaos apply: API
 * requests other than OPTIONS, so that a browser's CORS preflight is never
 * delayed or failed (the page would see a CORS error, not the answer).
 */
export function isShaped(context: RequestContext): boolean {
  return context.api && context.request.method !== 'OPTIONS';
}
