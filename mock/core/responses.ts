/**
 * The plain request and response objects the pure handler speaks, the mock's
 * stable error codes, and the helpers that build its JSON and Error responses.
 */
/** A request as the handler sees it: no socket, no streams. */
export interface ApiRequest {
  method: string;
  /** Path and query exactly as received (`/v1/pets?limit=5`). */
  url: string;
  /** Header names in lower case; a header sent twice may be an array. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, if any was sent. */
  body?: Uint8Array | string;
  /** The body as JSON, set by the handler once it parsed it: the layers after it read this rather than parse again. */
  json?: unknown;
  /** Set by the adapter when the body exceeded the limit and was not read. */
  bodyTooLarge?: boolean;
  /**
   * Set by the adapter when the client went away (closed the connection, aborted) while the mock was still making
   * its answer: the journal and coverage count that answer as abandoned, since the client never read it.
   */
  abandoned?: boolean;
}

/**
 * A response as the handler makes it; `body` is already serialised.
 *
 * The fault contract, for every adapter: when `fault` is set, the response is
 * not delivered as it is. `reset`: the connection is reset (TCP RST), nothing
 * is sent. `close`: the connection is closed cleanly (FIN), nothing is sent.
 * `truncated`: the status line and headers go out with the full
 * Content-Length, then the first half of the body, then the connection is
 * closed. `hang`: nothing is sent until the client gives up, or the adapter's
 * request timeout ends the connection. An adapter that cannot carry a fault
 * out (no socket) must fail the request as a network error would.
 */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * `body` encoded as UTF-8, when the mock keeps it (a listing of an unchanged store): an adapter may send these
   * bytes instead of encoding `body` again (read-only, maybe a view into a larger buffer: byteOffset and byteLength
   * say where). Whatever changes `body` must drop it.
   */
  bytes?: Uint8Array;
  /** A transport fault the adapter carries out instead of sending the response normally. */
  fault?: TransportFault;
  /** The id of the pet a create stored (its 201): coverage remembers it, to know a read of that pet when one comes. */
  createdId?: number;
}

/** Faults an adapter carries out on the connection (see {@link ApiResponse}). */
export type TransportFault = 'reset' | 'close' | 'truncated' | 'hang';

/** Every fault a client may ask for: the transport faults, and `malformed` (a 200 whose body is not JSON), made in core. */
export const FAULTS = ['reset', 'close', 'truncated', 'malformed', 'hang'] as const;

/** One of {@link FAULTS}. */
export type Fault = (typeof FAULTS)[number];

/**
 * The mock's error codes: a small stable set, one per kind of failure.
 * @see ../README.md "Error codes"
 */
export const ErrorCode = {
  unauthorized: 'unauthorized',
  invalidParameter: 'invalid_parameter',
  invalidBody: 'invalid_body',
  malformedJson: 'malformed_json',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  notFound: 'not_found',
  routeNotFound: 'route_not_found',
  methodNotAllowed: 'method_not_allowed',
  malformedRequest: 'malformed_request',
  headersTooLarge: 'headers_too_large',
  requestTimeout: 'request_timeout',
  internalError: 'internal_error',
  rateLimited: 'rate_limited',
  badGateway: 'bad_gateway',
  serviceUnavailable: 'service_unavailable',
  gatewayTimeout: 'gateway_timeout',
  invalidPreference: 'invalid_preference',
  invalidScenario: 'invalid_scenario',
  hostNotAllowed: 'host_not_allowed',
  originNotAllowed: 'origin_not_allowed',
  idsExhausted: 'ids_exhausted',
  storeFull: 'store_full',
  controlKeyRequired: 'control_key_required',
  sessionNotFound: 'session_not_found',
  sessionEnded: 'session_ended',
  invalidSessionName: 'invalid_session_name',
  sessionExists: 'session_exists',
  sessionLimit: 'session_limit',
  sessionsUnsupported: 'sessions_unsupported',
} as const;

/** One of the mock's error codes. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const JSON_TYPE = 'application/json';

/** A 2xx/3xx JSON response from already serialised text. */
export function jsonResponse(status: number, body: string, headers?: Record<string, string>): ApiResponse {
  const all: Record<string, string> = { 'content-type': JSON_TYPE };
  if (headers !== undefined) Object.assign(all, headers);
  return { status, headers: all, body };
}

/** An Error body response: `{ code, message, status }` with `status` equal to the HTTP status. */
export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
): ApiResponse {
  return jsonResponse(status, JSON.stringify({ code, message, status }), headers);
}

/**
 * A 415 Error for a body sent with a content coding (gzip, br, …), or undefined when there is none: the header is a
 * list (RFC 9110 §8.4), so an empty one, or one naming only `identity`, means the body is as sent.
 */
export function refuseContentCoding(header: string | string[] | undefined): ApiResponse | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  const codings = text.split(',').map((c) => c.trim().toLowerCase());
  if (codings.every((c) => c === '' || c === 'identity')) return undefined;
  return errorResponse(
    415,
    ErrorCode.unsupportedMediaType,
    `Content-Encoding ${JSON.stringify(text.slice(0, 100))} is not supported: send the JSON uncompressed`,
  );
}

/** True when a Content-Type header names JSON (`application/json` or `application/*+json`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === JSON_TYPE) return true;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === JSON_TYPE || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}
