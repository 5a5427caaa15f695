/**
 * A store kept outside the process, in a database (SQLite, PostgreSQL): the
 * calls of the in-memory {@link PetStore}, answered asynchronously, and the
 * operations that answer through it. Pets, the id sequence and the byte
 * budget live in the database, so several mocks on one database share them;
 * the databases' own code lives beside the node adapter (mock/node/stores),
 * never here.
 * @see ../../docs/mock.md "Stores"
 */
import type { NewPet, Pet, PetStatus } from '../../spec/index.ts';
import { created, idsExhausted, isResponse, listQuery, newPetOf, petFound, petIdOf } from './operations.ts';
import type { QueryParams } from './query.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse, jsonResponse } from './responses.ts';
import { type StoredPet, StoreFullError } from './store.ts';

/** Thrown by a {@link SharedStore} with no id left to give (the largest is 2^53 - 1): a 507 `ids_exhausted`. */
export class IdsExhaustedError extends RangeError {
  constructor() {
    super('no pet id is left');
    this.name = 'IdsExhaustedError';
  }
}

/** A store in a database; every call may fail when the database cannot be reached (a 503 to the client). */
export interface SharedStore {
  /** Where the store is, for messages: its URL with the password hidden. */
  readonly where: string;
  /**
   * Makes the store ready: seeds it with `pets()` (called only then) when it has never been seeded, serves it as
   * it is otherwise. Resolves with the number of pets it holds.
   */
  open(pets: () => Promise<readonly Pet[]>): Promise<number>;
  /** Stores a new pet with the next id; a {@link StoreFullError} beyond the budget, an {@link IdsExhaustedError}. */
  add(input: NewPet): Promise<StoredPet>;
  /** The JSON text of the pet with this id, or undefined. */
  getJson(id: number): Promise<string | undefined>;
  /** The first `limit` pets in ascending id order, optionally only those with `status`, as a JSON array. */
  listJson(limit: number, status?: PetStatus): Promise<string>;
  /** Number of pets held. */
  count(): Promise<number>;
  /** Every pet, in ascending id order, as a JSON array. */
  allJson(): Promise<string>;
  /** Back to the seeded pets (for every instance on the store); resolves with their number. */
  reset(): Promise<number>;
  /** Holds exactly `pets` (checked already); a {@link StoreFullError} beyond the budget, changing nothing. */
  replace(pets: readonly Pet[]): Promise<void>;
  /**
   * Counts one request of a rate-limit bucket (an `Authorization` value, kept only as a hash) in a one-second
   * window, for every mock on the store; resolves with the count so far.
   */
  countRequest(bucket: string, window: number): Promise<number>;
  /** Lets the database go. */
  close(): Promise<void>;
}

/** Seconds a client is asked to wait when the database cannot be reached. */
export const STORE_RETRY_AFTER_SECONDS = 1;

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

/** The three operations on a {@link SharedStore}: the same checks and answers as on memory, a store call awaited. */
export function sharedOperations(store: SharedStore) {
  const failed = (error: unknown) => storeFailure(error, store.where);
  return {
    listPets(query: QueryParams): ApiResponse | Promise<ApiResponse> {
      const params = listQuery(query);
      if (isResponse(params)) return params;
      return store.listJson(params.limit, params.status).then((json) => jsonResponse(200, json), failed);
    },
    getPet(rawId: string, link: string): ApiResponse | Promise<ApiResponse> {
      const id = petIdOf(rawId);
      if (typeof id !== 'number') return id;
      // NaN (an id beyond 2^53) is held by no pet: no need to ask.
      if (Number.isNaN(id)) return petFound(undefined, rawId, link);
      return store.getJson(id).then((json) => petFound(json, rawId, link), failed);
    },
    createPet(request: ApiRequest, basePath: string): ApiResponse | Promise<ApiResponse> {
      const input = newPetOf(request);
      if (isResponse(input)) return input;
      return store.add(input).then((entry) => created(entry, basePath), failed);
    },
  };
}
