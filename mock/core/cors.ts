/**
 * CORS as a layer: `Access-Control-Allow-Origin: *` on every answer, the
 * useful headers it carries exposed to pages, and a preflight (the handler's 204 to
 * OPTIONS, with its `Allow`) turned into a CORS answer that names
 * `Authorization` and `Prefer` explicitly (a `*` does not cover Authorization).
 */
import type { Layer } from './layers.ts';
import type { ApiRequest, ApiResponse } from './responses.ts';

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
];

/** Request headers every preflight allows, before those it asks for. */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Prefer'];

/** Adds CORS headers to every answer and answers preflights. */
export function corsLayer(): Layer {
  const bitOf = new Map(EXPOSED_HEADERS.map((name, i) => [name.toLowerCase(), 1 << i]));
  // The value for each set of exposable headers, made once: an answer's value is one lookup, not a new string.
  const exposedBySet: string[] = [];
  const exposedFor = (set: number): string =>
    (exposedBySet[set] ??= EXPOSED_HEADERS.filter((_, i) => set & (1 << i)).join(', '));
  const decorate = (response: ApiResponse, request: ApiRequest): ApiResponse => {
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
    response.headers['access-control-allow-origin'] = '*';
    // Only what this answer carries (a listing needs none): every header sent is one more for node to check and write.
    // Walking the answer's few headers is cheaper than looking up nine names in each answer.
    let set = 0;
    for (const key in response.headers) set |= bitOf.get(key) ?? 0;
    if (set !== 0) response.headers['access-control-expose-headers'] = exposedFor(set);
    return response;
  };
  return (context, next) => {
    const answer = next(context);
    // A closure only when the answer waits: made for every request, it would be one more allocation each.
    return answer instanceof Promise
      ? answer.then((response) => decorate(response, context.request))
      : decorate(answer, context.request);
  };
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
