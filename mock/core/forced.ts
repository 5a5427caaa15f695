/**
 * Forced answers: the Error response for a status a scenario, a `Prefer`
 * header or chaos asks for, which statuses each operation may be forced to,
 * and the `malformed` fault's body.
 * @see ../../docs/mock.md "Prefer", "Scenarios"
 */
import type { OperationInfo } from '../../spec/index.ts';
import { type ApiResponse, ErrorCode, errorResponse } from './responses.ts';

/** The service-level failures a client must handle, forceable on any API request. */
export const SERVICE_FAILURES: readonly number[] = [429, 500, 502, 503, 504];

/** Every status a scenario may force: the documented errors of some operation, and the service failures. */
export const SCENARIO_STATUSES: readonly number[] = [400, 401, 404, ...SERVICE_FAILURES];

/** Seconds a forced 429 or 503 asks the client to wait. */
const FORCED_RETRY_AFTER = '1';

/** The statuses `Prefer: code=` may ask of an operation: its documented errors, then the service failures. */
export function forceableFor(operation: OperationInfo | undefined): number[] {
  const documented = operation?.statuses ?? [];
  return [...documented.filter((s) => s >= 400 && !SERVICE_FAILURES.includes(s)), ...SERVICE_FAILURES];
}

const ERRORS: Record<number, [ErrorCode, string]> = {
  400: [ErrorCode.invalidParameter, 'the request is not valid'],
  401: [ErrorCode.unauthorized, 'API key missing or invalid'],
  404: [ErrorCode.notFound, 'no such pet'],
  429: [ErrorCode.rateLimited, 'too many requests'],
  500: [ErrorCode.internalError, 'internal error'],
  502: [ErrorCode.badGateway, 'bad gateway'],
  503: [ErrorCode.serviceUnavailable, 'service unavailable'],
  504: [ErrorCode.gatewayTimeout, 'gateway timeout'],
};

/** The Error response for a forced status, saying who forced it. */
export function forcedResponse(status: number, source: string, operationId?: string): ApiResponse {
  const [fallbackCode, what] = ERRORS[status] ?? [ErrorCode.internalError, 'forced error'];
  const code = status === 400 && operationId === 'createPet' ? ErrorCode.invalidBody : fallbackCode;
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="petstore"';
  if (status === 429 || status === 503) headers['retry-after'] = FORCED_RETRY_AFTER;
  return errorResponse(status, code, `${what} (forced by ${source})`, headers);
}

/** The `malformed` fault: a 200 that says it is JSON and is not. */
export function malformedResponse(): ApiResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "Rex", "categ' };
}
