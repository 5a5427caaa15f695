/**
 * The three documented operations, after routing and authentication:
 * parameter and body validation, then the store.
 * @see ../../docs/contract.md "Endpoints"
 */
import type { ErrorObject } from 'ajv';
import { getValidator, listPetsLimit, type NewPet, type PetStatus, petStatuses, sunsetOf } from '../../spec/index.ts';
import { findInexactInteger } from './exact-numbers.ts';
import type { QueryParams } from './query.ts';
import {
  type ApiRequest,
  type ApiResponse,
  ErrorCode,
  errorResponse,
  isJsonMediaType,
  refuseContentCoding,
} from './responses.ts';
import { IdsExhaustedError, type Later, type PetStore, type StoredPet, StoreFullError } from './store.ts';

const STATUSES: readonly string[] = petStatuses();
const LIMIT = listPetsLimit();
const INT64_MAX = 2n ** 63n - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
/** RFC 8594 Sunset for getPet: the removal date the spec records (`x-sunset`), as an HTTP date. */
const GET_PET_SUNSET = sunsetOf('getPet')!.toUTCString();
/**
 * RFC 9745 Deprecation for getPet. The interface says getPet is deprecated
 * but not since when, so the mock claims no date beyond "already": the epoch.
 */
const GET_PET_DEPRECATION = '@0';
const utf8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = 'application/json';
const validateNewPet = getValidator('NewPet');

function single(query: QueryParams, name: string): string | undefined | ApiResponse {
  const values = query.getAll(name);
  if (values.length > 1) return errorResponse(400, ErrorCode.invalidParameter, `${name} must be given at most once`);
  return values[0];
}

/**
 * Whether a step's result is the Error answering the request rather than what it parsed (a NewPet's status, and a
 * listing's, is never a number, whatever unknown fields a body sends).
 */
export function isResponse<T extends object>(value: T | ApiResponse): value is ApiResponse {
  return typeof (value as ApiResponse).status === 'number';
}

/** What a listing asks for, once its query is checked. */
export interface ListingParams {
  limit: number;
  status: PetStatus | undefined;
}

/** A listing's parameters, or the 400 Error for a bad or repeated `limit` or `status`. */
export function listQuery(query: QueryParams): ApiResponse | ListingParams {
  const rawLimit = single(query, 'limit');
  if (typeof rawLimit === 'object') return rawLimit;
  const rawStatus = single(query, 'status');
  if (typeof rawStatus === 'object') return rawStatus;
  let limit = LIMIT.default;
  if (rawLimit !== undefined) {
    limit = /^[0-9]{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= LIMIT.minimum && limit <= LIMIT.maximum)) {
      return errorResponse(
        400,
        ErrorCode.invalidParameter,
        `limit must be an integer from ${LIMIT.minimum} to ${LIMIT.maximum}, got ${JSON.stringify(rawLimit)}`,
      );
    }
  }
  if (rawStatus !== undefined && !STATUSES.includes(rawStatus)) {
    return errorResponse(
      400,
      ErrorCode.invalidParameter,
      `status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(rawStatus)}`,
    );
  }
  return { limit, status: rawStatus as PetStatus | undefined };
}

/** The `Link` to getPet's successor under `basePath` (made once per handler, not per request). */
export function successorLink(basePath: string): string {
  return `<${basePath}/pets>; rel="successor-version"`;
}

/** The id `rawId` names (NaN for one beyond 2^53, which no pet has), or the 400 Error when it is not an int64. */
function petIdOf(rawId: string): number | ApiResponse {
  const digits = rawId.startsWith('-') ? rawId.length - 1 : rawId.length;
  // At most 18 digits always fit in an int64; only longer ones need the exact check.
  if (!/^-?[0-9]{1,20}$/.test(rawId) || (digits > 18 && outOfInt64(rawId))) {
    return errorResponse(
      400,
      ErrorCode.invalidParameter,
      `petId must be a 64-bit integer, got ${JSON.stringify(rawId)}`,
    );
  }
  // At most 15 digits convert exactly; a longer id counts only when it is a safe integer,
  // so a number beyond 2^53 never rounds onto a stored id (such ids are never assigned).
  return digits <= 15 ? Number(rawId) : exactSafe(rawId);
}

/** getPet's answer for what the store found: 200 with the deprecation headers, or 404. */
function petFound(found: string | undefined, rawId: string, link: string): ApiResponse {
  if (found === undefined) return errorResponse(404, ErrorCode.notFound, `no pet with id ${rawId}`);
  return {
    status: 200,
    headers: {
      'content-type': JSON_TYPE,
      deprecation: GET_PET_DEPRECATION,
      sunset: GET_PET_SUNSET,
      link,
    },
    body: found,
  };
}

/** `GET /pets/{petId}`: 200 with the pet and the deprecation headers, 404 when absent, 400 when not an int64. */
export function getPet(store: PetStore, rawId: string, link: string): Later<ApiResponse> {
  const id = petIdOf(rawId);
  if (typeof id !== 'number') return id;
  // NaN (an id beyond 2^53) is held by no pet: no need to ask.
  if (Number.isNaN(id)) return petFound(undefined, rawId, link);
  const found = store.getJson(id);
  return found instanceof Promise
    ? found.then(
        (json) => petFound(json, rawId, link),
        (error) => storeFailure(error, store.where),
      )
    : petFound(found, rawId, link);
}

function outOfInt64(rawId: string): boolean {
  const id = BigInt(rawId);
  return id > INT64_MAX || id < -INT64_MAX - 1n;
}

/** The integer `rawId` spells, when it is a safe integer; NaN otherwise. */
function exactSafe(rawId: string): number {
  const id = BigInt(rawId);
  return id >= MIN_SAFE && id <= MAX_SAFE ? Number(id) : Number.NaN;
}

/** The NewPet a create's request carries, or the 400, 413 or 415 Error naming what is wrong with it. */
function newPetOf(request: ApiRequest): NewPet | ApiResponse {
  if (request.bodyTooLarge)
    return errorResponse(413, ErrorCode.payloadTooLarge, 'request body is larger than the limit');
  const header = request.headers['content-type'];
  const contentType = Array.isArray(header) ? header.join(', ') : header;
  const empty = request.body === undefined || request.body.length === 0;
  if (empty && contentType === undefined)
    return errorResponse(400, ErrorCode.invalidBody, 'a JSON request body (NewPet) is required');
  if (!isJsonMediaType(contentType)) {
    return errorResponse(
      415,
      ErrorCode.unsupportedMediaType,
      `Content-Type must be application/json, got ${JSON.stringify(contentType ?? '')}`,
    );
  }
  const coded = refuseContentCoding(request.headers['content-encoding']);
  if (coded) return coded;
  if (empty) return errorResponse(400, ErrorCode.invalidBody, 'a JSON request body (NewPet) is required');
  const text = decodeBody(request.body!);
  // The body as the text it was decoded to: the journal, which records it after, need not decode it again.
  if (typeof text === 'string') request.body = text;
  const parsed = text instanceof Error ? text : parseJson(text);
  if (parsed instanceof Error)
    return errorResponse(400, ErrorCode.malformedJson, `request body is not valid JSON: ${parsed.message}`);
  // Kept for the layers that read it after (the Pact recorder): they parse nothing again.
  request.json = parsed;
  const problem = newPetProblem(parsed);
  if (problem) return errorResponse(400, ErrorCode.invalidBody, problem);
  const inexact = findInexactInteger(text as string, 1, (path) => path.length === 1 && path[0] === 'categoryId');
  if (inexact)
    return errorResponse(
      400,
      ErrorCode.invalidBody,
      `invalid NewPet: categoryId must be kept exactly: write an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (got ${inexact.text})`,
    );
  return parsed as NewPet;
}

/** The 507 Error of a store with no id left. */
function idsExhausted(): ApiResponse {
  return errorResponse(
    507,
    ErrorCode.idsExhausted,
    `no pet id is left: the largest id held is ${Number.MAX_SAFE_INTEGER} (2^53 - 1); reset or replace the pets (POST /__control/reset)`,
  );
}

/** The 201 for a stored pet, with its `Location` under `basePath`. */
function created(entry: StoredPet, basePath: string): ApiResponse {
  return {
    status: 201,
    headers: { 'content-type': JSON_TYPE, location: `${basePath}/pets/${entry.id}` },
    body: entry.json,
    createdId: entry.id,
  };
}

/** `POST /pets`: 201 with the stored Pet; 400, 413 or 415 with an Error naming what is wrong; 507 when the store is full. */
export function createPet(store: PetStore, request: ApiRequest, basePath: string): Later<ApiResponse> {
  const input = newPetOf(request);
  if (isResponse(input)) return input;
  let entry: Later<StoredPet>;
  try {
    entry = store.add(input);
  } catch (error) {
    if (error instanceof StoreFullError || error instanceof IdsExhaustedError) return storeFailure(error, store.where);
    throw error;
  }
  return entry instanceof Promise
    ? entry.then(
        (stored) => created(stored, basePath),
        (error) => storeFailure(error, store.where),
      )
    : created(entry, basePath);
}

/** Seconds a client is asked to wait when the database cannot be reached. */
const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * The Error for a store call that failed: 507 `store_full` or `ids_exhausted` for what the store refused, else a
 * 503 with `Retry-After` (the database is unreachable); the message names the store by its redacted URL only,
 * never what the driver said (it may quote a connection string).
 */
export function storeFailure(error: unknown, where: string): ApiResponse {
  if (error instanceof StoreFullError) return errorResponse(507, ErrorCode.storeFull, error.message);
  if (error instanceof IdsExhaustedError) return idsExhausted();
  const code = (error as { code?: unknown } | undefined)?.code;
  const why = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
  return errorResponse(
    503,
    ErrorCode.serviceUnavailable,
    `the pet store at ${where} cannot be reached${why}; try again shortly`,
    { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
  );
}

/** The body as text; an Error when its bytes are not UTF-8. */
function decodeBody(body: Uint8Array | string): string | Error {
  try {
    return typeof body === 'string' ? body : utf8.decode(body);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** What makes `value` an invalid NewPet, naming the field, or `undefined` when it is valid. */
function newPetProblem(value: unknown): string | undefined {
  if (!validateNewPet(value)) {
    const errors = validateNewPet.errors!;
    // "must be integer" already says what "must match format int64" would add.
    const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    const shown = errors.filter((e) => !(e.keyword === 'format' && typed.has(e.instancePath)));
    return `invalid NewPet: ${shown.map(describeError).join('; ')}`;
  }
  const { categoryId } = value as NewPet;
  // JSON numbers beyond 2^53 lose digits when parsed; refuse them rather than store a rounded id.
  if (!Number.isSafeInteger(categoryId)) {
    return `invalid NewPet: categoryId must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} to be kept exactly`;
  }
  return undefined;
}

function describeError(error: ErrorObject): string {
  const field = error.instancePath.slice(1).replaceAll('/', '.');
  if (error.keyword === 'required')
    return `${(error.params as { missingProperty: string }).missingProperty} is required`;
  if (error.keyword === 'enum')
    return `${field} must be one of ${(error.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  return field === '' ? `body ${error.message}` : `${field} ${error.message}`;
}
