/**
 * The pure API handler: (ApiRequest) -> ApiResponse, with no socket.
 * Order: route, method (OPTIONS answers with `Allow`), authentication (401
 * before any validation or lookup), then the operation. CORS, the control
 * endpoints and everything else wrap it as layers (mock.ts).
 */
import { type Authenticator, createAuthenticator, describeAuthFailure } from './auth.ts';
import { originForm, splitTarget, type Target } from './layers.ts';
import { createPet, getPet, listPets, successorLink } from './operations.ts';
import { parseQuery, type QueryParams } from './query.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';
import type { PetStore } from './store.ts';

/** Options for {@link createHandler}. */
export interface HandlerOptions {
  store: PetStore;
  /** Keys accepted as `Authorization: Bearer <key>`. */
  apiKeys: readonly string[];
  /** Path prefix of the API (default `/v1`). */
  basePath?: string;
  /** What the URLs the mock writes (`Location`, `Link`) start with: the adapter's base path, such as `/api/v1` (default `basePath`). */
  urlBase?: string;
  /** Operations past their sunset (`asOf`): not routed, so they answer as an unknown route does. */
  removed?: ReadonlySet<string>;
}

/** Handles one request, synchronously; `target` is its URL already split, when the caller has split it. */
export type Handler = (request: ApiRequest, target?: Target) => ApiResponse;

interface Route {
  allow: readonly string[];
  run(request: ApiRequest, query: QueryParams, param: string): ApiResponse;
}

/** Builds the handler for one store and set of keys. */
export function createHandler({
  store,
  apiKeys,
  basePath = '/v1',
  urlBase = basePath,
  removed,
}: HandlerOptions): Handler {
  const getPetGone = removed?.has('getPet') === true;
  const authenticate = createAuthenticator(apiKeys);
  const link = successorLink(urlBase);
  const basePathSegment = basePath.slice(1);
  const api: Record<string, Route> = {
    collection: {
      allow: ['GET', 'HEAD', 'POST'],
      run: (req, query) => (req.method === 'POST' ? createPet(store, req, urlBase) : listPets(store, query)),
    },
    item: { allow: ['GET', 'HEAD'], run: (_req, _query, id) => getPet(store, id, link) },
  };
  const collectionPath = `${basePath}/pets`;
  const itemPrefix = `${collectionPath}/`;
  const collection = { route: api.collection!, param: '' };
  /** Routes on the path's segments, each decoded on its own, so an escaped slash (`%2F`) never separates. */
  function route(rawPath: string): { route: Route; param: string } | undefined {
    if (!rawPath.includes('%')) {
      // Nothing to decode: compare the path itself, without splitting it.
      if (rawPath === collectionPath) return collection;
      if (!rawPath.startsWith(itemPrefix)) return undefined;
      const id = rawPath.slice(itemPrefix.length);
      return id !== '' && !id.includes('/') && !getPetGone ? { route: api.item!, param: id } : undefined;
    }
    const segments = decodeSegments(rawPath);
    if (segments === undefined) return undefined;
    const [first, ...rest] = segments;
    if (first === basePathSegment && rest[0] === 'pets') {
      if (rest.length === 1) return { route: api.collection!, param: '' };
      if (rest.length === 2 && rest[1] !== '' && !getPetGone) return { route: api.item!, param: rest[1]! };
    }
    return undefined;
  }

  function dispatch(request: ApiRequest, target?: Target): ApiResponse {
    const { path: rawPath, query } = target ?? splitTarget(originForm(request.url));
    const matched = route(rawPath);
    if (!matched) return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    const { allow } = matched.route;
    if (request.method === 'OPTIONS') return optionsResponse(allow);
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
    const refused = unauthorized(authenticate, request);
    if (refused) return refused;
    return matched.route.run(request, parseQuery(query), matched.param);
  }

  return dispatch;
}

/** The 401 Error for a request whose key is missing or wrong, or undefined when it may pass. */
function unauthorized(authenticate: Authenticator, request: ApiRequest): ApiResponse | undefined {
  const header = request.headers.authorization;
  const failure = authenticate(Array.isArray(header) ? header[0] : header);
  if (!failure) return undefined;
  const { message, challenge } = describeAuthFailure(failure);
  return errorResponse(401, ErrorCode.unauthorized, message, { 'www-authenticate': challenge });
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

/** An OPTIONS request: 204 with what the route allows (the CORS layer turns it into a preflight answer). */
function optionsResponse(allow: readonly string[]): ApiResponse {
  return { status: 204, headers: { allow: [...allow, 'OPTIONS'].join(', ') }, body: '' };
}
