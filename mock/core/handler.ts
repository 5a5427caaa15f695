/**
 * The pure request handler: (ApiRequest) -> ApiResponse, with no socket.
 * Order: CORS preflight, route, method, authentication (401 before any
 * validation or lookup), then the operation.
 */
import { type Authenticator, createAuthenticator, describeAuthFailure } from './auth.ts';
import { createPet, getPet, listPets } from './operations.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse, jsonResponse } from './responses.ts';
import type { PetStore } from './store.ts';

/** Options for {@link createHandler}. */
export interface HandlerOptions {
  store: PetStore;
  /** Keys accepted as `Authorization: Bearer <key>`. */
  apiKeys: readonly string[];
  /** Answer CORS preflights and add CORS headers (default true). */
  cors?: boolean;
  /** Path prefix of the API (default `/v1`). */
  basePath?: string;
}

/** Handles one request, synchronously. */
export type Handler = (request: ApiRequest) => ApiResponse;

/** Path prefix of the control endpoints, outside the API. */
export const CONTROL_PREFIX = '/__control';

interface Route {
  allow: readonly string[];
  run(request: ApiRequest, query: URLSearchParams, param: string): ApiResponse;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, WWW-Authenticate',
};

/** Builds the handler for one store and set of keys. */
export function createHandler({ store, apiKeys, cors = true, basePath = '/v1' }: HandlerOptions): Handler {
  const authenticate = createAuthenticator(apiKeys);
  const basePathSegment = basePath.slice(1);
  const api: Record<string, Route> = {
    collection: {
      allow: ['GET', 'HEAD', 'POST'],
      run: (req, query) => (req.method === 'POST' ? createPet(store, req, basePath) : listPets(store, query)),
    },
    item: { allow: ['GET', 'HEAD'], run: (_req, _query, id) => getPet(store, id, basePath) },
  };
  const control = controlRoutes(store);

  /** Routes on the path's segments, each decoded on its own, so an escaped slash (`%2F`) never separates. */
  function route(rawPath: string): { route: Route; param: string; authenticated: boolean } | undefined {
    const segments = decodeSegments(rawPath);
    if (segments === undefined) return undefined;
    const [first, ...rest] = segments;
    if (first === basePathSegment && rest[0] === 'pets') {
      if (rest.length === 1) return { route: api.collection!, param: '', authenticated: true };
      if (rest.length === 2 && rest[1] !== '') return { route: api.item!, param: rest[1]!, authenticated: true };
      return undefined;
    }
    const found = segments.length === 2 ? control[`/${first}/${rest[0]}`] : undefined;
    return found ? { route: found, param: '', authenticated: false } : undefined;
  }

  function dispatch(request: ApiRequest): ApiResponse {
    const url = originForm(request.url);
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const matched = route(rawPath);
    if (!matched) return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    const { allow } = matched.route;
    if (request.method === 'OPTIONS') return optionsResponse(request, allow, cors);
    if (!allow.includes(request.method)) {
      return errorResponse(
        405,
        ErrorCode.methodNotAllowed,
        `${request.method} is not allowed on ${rawPath}; allowed: ${allow.join(', ')}`,
        {
          allow: allow.join(', '),
        },
      );
    }
    const refused = matched.authenticated ? unauthorized(authenticate, request) : undefined;
    if (refused) return refused;
    const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
    return matched.route.run(request, query, matched.param);
  }

  return (request) => {
    const response = dispatch(request);
    if (cors) Object.assign(response.headers, CORS_HEADERS);
    return response;
  };
}

/** The endpoints outside the API, for tests and demos: reset, the whole state, health. */
function controlRoutes(store: PetStore): Record<string, Route> {
  return {
    [`${CONTROL_PREFIX}/reset`]: {
      allow: ['POST'],
      run: () => (store.reset(), jsonResponse(200, JSON.stringify({ reset: true, pets: store.size }))),
    },
    [`${CONTROL_PREFIX}/pets`]: { allow: ['GET', 'HEAD'], run: () => jsonResponse(200, JSON.stringify(store.all())) },
    [`${CONTROL_PREFIX}/health`]: { allow: ['GET', 'HEAD'], run: () => jsonResponse(200, '{"status":"ok"}') },
  };
}

/** The 401 Error for a request whose key is missing or wrong, or undefined when it may pass. */
function unauthorized(authenticate: Authenticator, request: ApiRequest): ApiResponse | undefined {
  const header = request.headers.authorization;
  const failure = authenticate(Array.isArray(header) ? header[0] : header);
  if (!failure) return undefined;
  const { message, challenge } = describeAuthFailure(failure);
  return errorResponse(401, ErrorCode.unauthorized, message, { 'www-authenticate': challenge });
}

/** `http://host/v1/pets?x` (absolute form, RFC 9112 §3.2.2) as `/v1/pets?x`. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const match = /^https?:\/\/[^/?#]*(.*)$/i.exec(url);
  return match ? match[1]! || '/' : url;
}

/** `/a/b%2Fc` as `['a', 'b/c']`; undefined when an escape does not decode. */
function decodeSegments(rawPath: string): string[] | undefined {
  const segments = rawPath.slice(1).split('/');
  if (!rawPath.includes('%')) return segments;
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** `Authorization, Content-Type`, then every other header name a preflight asked for. */
function allowedHeaders(requested: string | string[] | undefined): string {
  const names = ['Authorization', 'Content-Type'];
  const asked = (Array.isArray(requested) ? requested.join(',') : (requested ?? '')).split(',');
  for (const raw of asked) {
    const name = raw.trim();
    // Only header-name characters (RFC 9110 token) are echoed.
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !names.some((n) => n.toLowerCase() === name.toLowerCase()))
      names.push(name);
  }
  return names.join(', ');
}

/** A CORS preflight (RFC: Fetch standard) or a plain OPTIONS: 204 with what the route allows. */
function optionsResponse(request: ApiRequest, allow: readonly string[], cors: boolean): ApiResponse {
  const headers: Record<string, string> = { allow: [...allow, 'OPTIONS'].join(', ') };
  if (cors && request.headers['access-control-request-method'] !== undefined) {
    headers['access-control-allow-methods'] = allow.join(', ');
    // Named explicitly (a `*` does not cover Authorization), plus whatever else the page asked to send.
    headers['access-control-allow-headers'] = allowedHeaders(request.headers['access-control-request-headers']);
    headers['access-control-max-age'] = '600';
  }
  return { status: 204, headers, body: '' };
}
