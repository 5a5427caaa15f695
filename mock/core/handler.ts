/**
 * The pure API handler: (ApiRequest) -> ApiResponse, with no socket.
 * Order: route, method (OPTIONS answers with `Allow`), authentication (401
 * before any validation or lookup), then the operation. CORS, the control
 * endpoints and everything else wrap it as layers (mock.ts).
 */
import type { OperationInfo } from '../../spec/index.ts';
import { operationMatcher, type RouteMatch } from '../../spec/match.ts';
import { type Authenticator, createAuthenticator, describeAuthFailure } from './auth.ts';
import { type Answer, originForm, splitTarget, type Target } from './layers.ts';
import { listPetsOf } from './listing.ts';
import { createPet, getPet, successorLink } from './operations.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';
import type { MemoryPetStore, PetStore } from './store.ts';

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

/** Where a request goes: its URL split, and its route when the caller has matched it already (the layers have). */
export interface Routed extends Target {
  route?: RouteMatch | undefined;
}

/** Handles one request, synchronously; `routed` is its URL already split and matched, when the caller has done so. */
export type Handler = (request: ApiRequest, routed?: Routed) => ApiResponse;

/** A handler whose answer may be a promise (on a store in a database). */
export type AnswerHandler = (request: ApiRequest, routed?: Routed) => Answer;

/** Builds the handler for one store and set of keys: answering at once on a store in memory. */
export function createHandler(options: HandlerOptions & { store: MemoryPetStore }): Handler;
export function createHandler(options: HandlerOptions): AnswerHandler;
export function createHandler({
  store,
  apiKeys,
  basePath = '/v1',
  urlBase = basePath,
  removed,
}: HandlerOptions): AnswerHandler {
  const authenticate = createAuthenticator(apiKeys);
  const link = successorLink(urlBase);
  const matcher = operationMatcher(basePath);
  const listPets = listPetsOf(store);
  const gone = (op: OperationInfo) => removed?.has(op.operationId) === true;
  // Whether a route still serves an operation (one past its sunset is not routed), decided once per template.
  const servedTemplates = new Map<string, boolean>();
  const serves = (route: RouteMatch): boolean => {
    let known = servedTemplates.get(route.template);
    if (known === undefined) {
      known = [...route.operations.values()].some((op) => !gone(op));
      servedTemplates.set(route.template, known);
    }
    return known;
  };

  function dispatch(request: ApiRequest, routed?: Routed): Answer {
    const { path: rawPath, query } = routed ?? splitTarget(originForm(request.url));
    const route = routed && 'route' in routed ? routed.route : matcher.route(rawPath);
    // An operation past its sunset is not routed: its path answers as an unknown one.
    const served = route && serves(route) ? route : undefined;
    if (!served) return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    if (request.method === 'OPTIONS') return optionsResponse(served.allow);
    const operation = served.operations.get(request.method === 'HEAD' ? 'GET' : request.method);
    if (!operation || gone(operation)) {
      const allow = served.allow.join(', ');
      return errorResponse(
        405,
        ErrorCode.methodNotAllowed,
        `${request.method} is not allowed on ${rawPath}; allowed: ${allow}`,
        { allow },
      );
    }
    const refused = unauthorized(authenticate, request);
    if (refused) return refused;
    switch (operation.operationId) {
      case 'listPets':
        return listPets(query);
      case 'createPet':
        return createPet(store, request, urlBase);
      case 'getPet':
        return getPet(store, served.params.petId!, link);
      default:
        return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    }
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

/** An OPTIONS request: 204 with what the route allows (the CORS layer turns it into a preflight answer). */
function optionsResponse(allow: readonly string[]): ApiResponse {
  return { status: 204, headers: { allow: [...allow, 'OPTIONS'].join(', ') }, body: '' };
}
