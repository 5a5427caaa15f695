/**
 * What every adapter shares, so each stays a few lines of translation: the
 * body limit, where a base URL mounts the mock, and an answer that never
 * throws. Plain JavaScript (URL is global in browsers and Node alike).
 */

import { badOption } from './errors.ts';
import { type Fetch, originForm } from './layers.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';

/** Largest request body the mock reads: 1 MiB; a bigger one is answered 413 unread. */
export const BODY_LIMIT = 1024 * 1024;

/** The base URL a socketless adapter answers when none is given. `.test` is reserved (RFC 2606): it never reaches a real host. */
export const DEFAULT_BASE_URL = 'http://petstore.test/v1';

/**
 * The contract's own path (its server URL), under which the core routes: an adapter strips its mount's prefix
 * first, so the core sees `/v1/pets` wherever the API is mounted. Where it is mounted (`/api/v1`) is the base path.
 */
export const API_PATH = '/v1';

/** Where a base URL puts the mock: `https://host/api/v1` serves the API at `/api/v1` and the controls at `/api/__control`. */
export interface Mount {
  /** `https://host`, or '' for a path-only base URL (a browser app's own origin). */
  origin: string;
  /** The path before the API's `/v1` (`/api`, or '' at the root): the base path is this and {@link API_PATH}. */
  prefix: string;
  /** The base URL as given, without a trailing slash. */
  baseUrl: string;
}

/** Parses a base URL ending in `/v1` (absolute, or a path such as `/v1` in a browser app). */
export function mountOf(baseUrl: string = DEFAULT_BASE_URL): Mount {
  if (typeof baseUrl !== 'string') throw badOption('baseUrl', `must be a string, got ${typeof baseUrl}`);
  const trimmed = baseUrl.replace(/\/+$/, '');
  const absolute = /^https?:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed, 'http://path-only.invalid');
  } catch {
    throw badOption('baseUrl', `is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if ((!absolute && !trimmed.startsWith('/')) || url.search || url.hash || !url.pathname.endsWith(API_PATH)) {
    throw badOption('baseUrl', `must be http(s)://host[/path]/v1 or /[path/]v1, got ${JSON.stringify(baseUrl)}`);
  }
  return { origin: absolute ? url.origin : '', prefix: url.pathname.slice(0, -API_PATH.length), baseUrl: trimmed };
}

/** The request's path and query as the core expects them (`/v1/pets?x`), or undefined when it is outside the mount. */
export function pathInMount(mount: Mount, pathAndQuery: string): string | undefined {
  if (mount.prefix === '') return pathAndQuery;
  if (!pathAndQuery.startsWith(mount.prefix)) return undefined;
  const rest = pathAndQuery.slice(mount.prefix.length);
  return rest.startsWith('/') ? rest : undefined;
}

/**
 * `fetch` for requests whose URL includes the mount's prefix (`/api/v1/pets`): each is handed on as the core
 * expects it (`/v1/pets`), and one outside the mount (`/v1/pets` under `/api`) is a 404, not served at `/v1`.
 */
export function mounted(mount: Pick<Mount, 'prefix'>, fetch: Fetch): Fetch {
  if (mount.prefix === '') return fetch;
  return (request) => {
    // A target in absolute form (RFC 9112 §3.2.2) is mounted by its path, as the core routes it.
    const url = pathInMount(mount as Mount, originForm(request.url));
    if (url === undefined)
      return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${request.url}`);
    return fetch({ ...request, url });
  };
}

/** `fetch(request)`, awaited; a throw, which would be a bug in the mock, becomes a 500 Error rather than a dropped request. */
export async function fetchOr500(fetch: Fetch, request: ApiRequest): Promise<ApiResponse> {
  try {
    return await fetch(request);
  } catch {
    return errorResponse(500, ErrorCode.internalError, 'internal error in the mock');
  }
}

/** True when the response must carry no body on the wire (HEAD, 204, 304). */
export function bodyless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304;
}
