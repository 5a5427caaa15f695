/**
 * The API's operations, the innermost step of the one pipeline (compose in
 * layers.ts matches the route before): for a routed request, the method
 * (OPTIONS answers with `Allow`), authentication (401 before any validation
 * or lookup), then the operation. CORS, the control endpoints and everything
 * else wrap it as layers (mock.ts).
 */
import type { OperationInfo } from '../../spec/index.ts';
import type { RouteMatch } from '../../spec/match.ts';
import { type Authenticator, createAuthenticator, describeAuthFailure } from './auth.ts';
import type { Next, RequestContext } from './layers.ts';
import { listPetsOf } from './listing.ts';
import { createPet, getPet, successorLink } from './operations.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';
import type { PetStore } from './store.ts';

/** Options for {@link createHandler}. */
interface HandlerOptions {
  store: PetStore;
  /** Keys accepted as `Authorization: Bearer <key>`. */
  apiKeys: readonly string[];
  /** Where the API is mounted, such as `/api/v1` (default `/v1`): the URLs the mock writes (`Location`, `Link`) start with it. */
  basePath?: string;
  /** Operations past their sunset (`asOf`): not routed, so they answer as an unknown route does (undefined: none). */
  removed?: ReadonlySet<string> | undefined;
}

/** The operations for one store and set of keys: answering a routed request, at once on a store in memory. */
export function createHandler({ store, apiKeys, basePath = '/v1', removed }: HandlerOptions): Next {
  const authenticate = createAuthenticator(apiKeys);
  const link = successorLink(basePath);
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

  return (context: RequestContext) => {
    const { request, path: rawPath, query, route, operation } = context;
    // An operation past its sunset is not routed: its path answers as an unknown one (with none past it, every route serves).
    const served = route && (removed === undefined || serves(route)) ? route : undefined;
    if (!served) return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    if (request.method === 'OPTIONS') return optionsResponse(served.allow);
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
        return createPet(store, request, basePath);
      case 'getPet':
        return getPet(store, served.params.petId!, link);
      default:
        return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${rawPath}`);
    }
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

/** An OPTIONS request: 204 with what the route allows (the CORS layer turns it into a preflight answer). */
function optionsResponse(allow: readonly string[]): ApiResponse {
  return { status: 204, headers: { allow: [...allow, 'OPTIONS'].join(', ') }, body: '' };
}
