/**
 * CORS as a layer: `Access-Control-Allow-Origin` for the origins allowed
 * (loopback origins on any port by default, more by name, or `*`), the useful
 * headers an answer carries exposed to pages, and a preflight (the handler's
 * 204 to OPTIONS, with its `Allow`) turned into a CORS answer that names
 * `Authorization` and `Prefer` explicitly (a `*` does not cover Authorization).
 * The control endpoints are stricter: a request from any origin not named
 * (nor the mock's own) is refused with 403, since a simple POST needs no
 * preflight and would change state even though its answer cannot be read.
 * @see ../../docs/mock.md "Security"
 */
import { CONTROL_PREFIX } from './control.ts';
import { badOption } from './errors.ts';
import type { Layer } from './layers.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';
import { SESSIONS_PATH } from './sessions.ts';

/** Response headers a page may read, when an answer carries them. */
export const EXPOSED_HEADERS = [
  'Location',
  'Deprecation',
  'Sunset',
  'Link',
  'WWW-Authenticate',
  'Retry-After',
  'Preference-Applied',
  'RateLimit-Policy',
  'RateLimit',
  'Journal-Dropped',
];

/** Request headers every preflight allows, before those it asks for. */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Prefer', 'Petstore-Session'];

/** Which origins CORS grants: `any` (a `*`), or loopback origins (API only) and those named. */
export interface CorsPolicy {
  /** Every origin, as `Access-Control-Allow-Origin: *` (the control endpoints included). */
  any: boolean;
  /** Origins granted besides loopback ones, as browsers send them (`https://app.example:8443`). */
  origins: ReadonlySet<string>;
}

/**
 * The policy for `origins`: each an origin (`http://host:port`) or `*` for any;
 * throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) naming one that is neither.
 */
export function corsPolicy(origins: readonly string[] = []): CorsPolicy {
  if (!Array.isArray(origins)) throw badOption('corsOrigins', 'must be an array of origins (http://host:port) or "*"');
  const set = new Set<string>();
  for (const origin of origins) {
    if (origin === '*') continue;
    const normal = typeof origin === 'string' ? normalOrigin(origin) : undefined;
    if (normal === undefined)
      throw badOption(
        'corsOrigins',
        `: ${JSON.stringify(origin)} is not an origin; give scheme://host[:port] (http://localhost:5173) or *`,
      );
    set.add(normal);
  }
  return { any: origins.includes('*'), origins: set };
}

/** `origin` as a browser sends it in `Origin` (lower case, no default port, no path), or undefined when it is not one. */
function normalOrigin(origin: string): string | undefined {
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(origin)) return undefined;
  try {
    const url = new URL(origin);
    return url.username === '' && url.password === '' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `origin` (an `Origin` header) is on this machine: `localhost`, `*.localhost`, 127.0.0.0/8 or `[::1]`, any port. */
export function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/(\[::1\]|[^:/[\]]+)(?::[0-9]{1,5})?$/.exec(origin);
  if (!match) return false;
  const host = match[1]!.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(host)
  );
}

/** Whether `origin` is the mock's own, as the request's `Host` names it (a page the mock served, or a proxy in front of it). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const at = origin.indexOf('://');
  return at !== -1 && origin.slice(at + 3).toLowerCase() === host.toLowerCase();
}

const CONTROL_PATH = `${CONTROL_PREFIX}/`;

/** Adds CORS headers to the answers of allowed origins, answers their preflights, and refuses control requests from other origins. */
export function corsLayer(policy: CorsPolicy = { any: true, origins: new Set() }): Layer {
  const bitOf = new Map(EXPOSED_HEADERS.map((name, i) => [name.toLowerCase(), 1 << i]));
  // The value for each set of exposable headers, made once: an answer's value is one lookup, not a new string.
  const exposedBySet: string[] = [];
  const exposedFor = (set: number): string =>
    (exposedBySet[set] ??= EXPOSED_HEADERS.filter((_, i) => set & (1 << i)).join(', '));
  const decorate = (response: ApiResponse, request: ApiRequest, origin: string | undefined): ApiResponse => {
    if (!policy.any) {
      // No Origin (curl, a test in Node, a same-origin GET): nothing for a browser to check, so no CORS headers.
      // Such an answer carries no validator or freshness, so no cache keeps it to serve a page that sends one.
      if (origin === undefined) return response;
      response.headers.vary = response.headers.vary ? `${response.headers.vary}, Origin` : 'Origin';
    }
    const allow = response.headers.allow;
    if (request.method === 'OPTIONS' && response.status === 204 && allow !== undefined) {
      if (request.headers['access-control-request-method'] !== undefined) {
        response.headers['access-control-allow-methods'] = allow
          .split(', ')
          .filter((m) => m !== 'OPTIONS')
          .join(', ');
        response.headers['access-control-allow-headers'] = allowedHeaders(
          request.headers['access-control-request-headers'],
        );
        response.headers['access-control-max-age'] = '600';
      }
    }
    response.headers['access-control-allow-origin'] = origin ?? '*';
    // Only what this answer carries (a listing needs none): every header sent is one more for node to check and write.
    // Walking the answer's few headers is cheaper than looking up nine names in each answer.
    let set = 0;
    for (const key in response.headers) set |= bitOf.get(key) ?? 0;
    if (set !== 0) response.headers['access-control-expose-headers'] = exposedFor(set);
    return response;
  };
  return (context, next) => {
    const { request } = context;
    const header = request.headers.origin;
    const sent = header === undefined ? undefined : Array.isArray(header) ? header.join(', ') : header;
    let origin: string | undefined;
    if (!policy.any && sent !== undefined) {
      // A session's controls (`/sessions/x/__control/reset`) are controls too: a foreign page may not reset one.
      const control =
        context.path.startsWith(CONTROL_PATH) ||
        (context.path.startsWith(SESSIONS_PATH) && context.path.includes(CONTROL_PATH));
      const host = request.headers.host;
      const own = sameOrigin(sent, Array.isArray(host) ? host[0] : host);
      if (control && !own && !policy.origins.has(sent)) return refuseOrigin(sent, true);
      if (own || policy.origins.has(sent) || isLoopbackOrigin(sent)) origin = sent;
      // A preflight the page cannot pass anyway: a clear 403 in its devtools rather than a bare CORS failure.
      else if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined)
        return refuseOrigin(sent, false);
      else return next(context);
    }
    const answer = next(context);
    // A closure only when the answer waits: made for every request, it would be one more allocation each.
    return answer instanceof Promise
      ? answer.then((response) => decorate(response, request, origin))
      : decorate(answer, request, origin);
  };
}

/** The 403 for a request (or preflight) from an origin the mock does not grant. */
function refuseOrigin(origin: string, control: boolean): ApiResponse {
  const what = control ? 'the control endpoints' : 'the API';
  return errorResponse(
    403,
    ErrorCode.originNotAllowed,
    `Blocked request from origin ${JSON.stringify(origin.slice(0, 200))}: it may not use ${what}. ` +
      'To allow it, start the mock with --cors-origin <origin> (corsOrigins in startMockServer); see docs/mock.md "Security"',
    { vary: 'Origin' },
  );
}

/** {@link ALLOWED_HEADERS}, then every other header name a preflight asked for. */
function allowedHeaders(requested: string | string[] | undefined): string {
  const names = [...ALLOWED_HEADERS];
  const asked = (Array.isArray(requested) ? requested.join(',') : (requested ?? '')).split(',');
  for (const raw of asked) {
    const name = raw.trim();
    // Only header-name characters (RFC 9110 token) are echoed.
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !names.some((n) => n.toLowerCase() === name.toLowerCase()))
      names.push(name);
  }
  return names.join(', ');
}
