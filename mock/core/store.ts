/**
 * The mock's in-memory state. Each pet is kept as its JSON text, one flat
 * string, with its id in a typed array and its position in a typed list per
 * status. One string per pet is all the garbage collector has to trace, so a
 * million seeded pets, or the hundred thousand a load test POSTs, cost every
 * later request little; and a (filtered) listing costs O(limit), not O(size).
 */
import { type NewPet, type Pet, type PetStatus, petStatuses } from '../../spec/index.ts';

/** A stored pet: its id and JSON text; the Pet object is parsed from the text when asked for. */
export class StoredPet {
  #pet: Readonly<Pet> | undefined;
  constructor(
    readonly id: number,
    readonly json: string,
  ) {}
  /** The pet, as a frozen object (parsed from {@link StoredPet.json} once). */
  get pet(): Readonly<Pet> {
    return (this.#pet ??= Object.freeze(JSON.parse(this.json) as Pet));
  }
}

/**
 * A listing as the store keeps it while it stays true: its JSON text, and that text as UTF-8, encoded when first
 * asked for. A caller that sees the same Listing again knows the listing has not changed since (one pointer
 * comparison; comparing the texts would read them whole).
 */
export class Listing {
  #bytes: Uint8Array | undefined;
  constructor(readonly json: string) {}
  /** {@link Listing.json} as UTF-8. */
  get bytes(): Uint8Array {
    return (this.#bytes ??= encodeUtf8(this.json));
  }
}

/**
 * UTF-8 as the runtime's socket writes it as it is: where there is a `Buffer` (Node, Bun), a Buffer, since node:http
 * wraps any other Uint8Array in a new Buffer on every write (about 350 instructions a listing); elsewhere (a browser,
 * Deno) a plain Uint8Array. Read from globalThis, so that nothing here needs node's modules.
 */
const encodeUtf8: (text: string) => Uint8Array = (() => {
  const { Buffer } = globalThis as { Buffer?: { from(text: string, encoding: 'utf8'): Uint8Array } };
  if (Buffer !== undefined) return (text) => Buffer.from(text, 'utf8');
  const utf8 = new TextEncoder();
  return (text) => utf8.encode(text);
})();

/**
 * `JSON.stringify` of the Pet `{ id, name, categoryId, status? }` (fields in
 * that order, nothing else of `input`), without making the Pet: only the name
 * needs escaping (the status is one of the spec's plain words). `join` copies
 * the pieces into one flat string, where a template literal or `+` makes a
 * tree of them (a ConsString) that a kept pet would hold until it is first
 * sent: about 330 bytes per pet against 100.
 */
export function petJson(id: number, { name, categoryId, status }: NewPet): string {
  const quoted = JSON.stringify(name);
  return status === undefined
    ? ['{"id":', id, ',"name":', quoted, ',"categoryId":', categoryId, '}'].join('')
    : ['{"id":', id, ',"name":', quoted, ',"categoryId":', categoryId, ',"status":"', status, '"}'].join('');
}

/**
 * What one pet counts against a store's byte budget: its JSON text, one byte per UTF-16 code unit (what V8
 * keeps for a Latin-1 string; twice that for other text), plus what keeping it costs besides.
 */
export function petBytes(json: string): number {
  return json.length + PET_OVERHEAD_BYTES;
}

/** What each pet costs besides its JSON text: its id, its slot in the columns, the string's header. */
export const PET_OVERHEAD_BYTES = 48;

/**
 * The byte budget of a store when none is given: 256 MiB of pets, which a laptop survives, and which holds
 * the largest seed (1,000,000 pets, about 110 MB) with room to grow.
 */
export const DEFAULT_STORE_BYTES = 256 * 1024 * 1024;

/** The largest byte budget a store takes: 64 GiB. */
export const MAX_STORE_BYTES = 64 * 1024 * 1024 * 1024;

/** Thrown by a store asked to hold more than its byte budget: the create is refused (507 `store_full`), nothing changes. */
export class StoreFullError extends RangeError {
  constructor(
    /** Bytes the pets would take. */
    readonly needed: number,
    /** The store's budget. */
    readonly budget: number,
  ) {
    super(
      `the pet store is full: its pets would take ${needed} bytes of its budget of ${budget}; raise the budget (--store-bytes, the storeBytes option) or make room (POST /__control/reset, PUT /__control/pets)`,
    );
    this.name = 'StoreFullError';
  }
}

/** A value now, or a promise of it: a store in memory answers now, one in a database later. */
export type Later<T> = T | Promise<T>;

/** Thrown by a store with no id left to give (the largest is 2^53 - 1): a 507 `ids_exhausted`. */
export class IdsExhaustedError extends RangeError {
  constructor(largest?: number) {
    super(largest === undefined ? 'no pet id is left' : `no pet id is left: the largest is ${largest}`);
    this.name = 'IdsExhaustedError';
  }
}

/**
 * The pets of a mock, and the only code that changes them: in memory ({@link createPetStore}, every call answered
 * now) or in a database (mock/node/stores, answered later; several mocks on one database share its pets, ids and
 * byte budget). A call that cannot reach its database rejects: the mock answers 503.
 */
export interface PetStore {
  /** Where the pets are, for messages: `memory`, or the database's URL with its password hidden. */
  readonly where: string;
  /** Number of pets held, as this process last saw it (other mocks on a database change it too). */
  readonly size: number;
  /**
   * Makes the store ready: seeds it with `pets()` (called only then) when it has never been seeded, serves it as it
   * is otherwise. Answers with the number of pets it holds.
   */
  open(pets: () => Later<readonly Pet[]>): Later<number>;
  /** Stores a new pet with the next id; a {@link StoreFullError} beyond the budget, an {@link IdsExhaustedError}. */
  add(input: NewPet): Later<StoredPet>;
  /** The JSON text of the pet with this id, or undefined. */
  getJson(id: number): Later<string | undefined>;
  /** The first `limit` pets in ascending id order, optionally only those with `status`, as a {@link Listing}. */
  listing(limit: number, status?: PetStatus): Later<Listing>;
  /** Every pet, in ascending id order, as a JSON array. */
  allJson(): Later<string>;
  /** Back to the seeded pets (for every mock on a database). */
  reset(): Later<void>;
  /** Holds exactly `pets` (checked already); a {@link StoreFullError} beyond the budget, changing nothing. */
  replace(pets: readonly Pet[]): Later<void>;
  /**
   * A database's: counts one request of a rate-limit bucket (an `Authorization` value, kept only as a hash) in a
   * one-second window, for every mock on the store; answers with the count so far.
   */
  countRequest?(bucket: string, window: number): Promise<number>;
  /** A database's: lets it go. */
  close?(): Promise<void>;
}

/** The store in memory: every call of {@link PetStore} answered now, and the reads tests and seeding use. */
export interface MemoryPetStore extends PetStore {
  /** The id the next added pet gets; beyond 2^53 - 1 (not a safe integer) when no id is left. */
  readonly nextId: number;
  /** Bytes the pets take, as counted against the budget ({@link petBytes}). */
  readonly bytes: number;
  open(pets: () => Later<readonly Pet[]>): Later<number>;
  /** Stores a new pet with the next id; unknown fields of `input` are not read. */
  add(input: NewPet): StoredPet;
  /** Looks a pet up by id. */
  get(id: number): StoredPet | undefined;
  getJson(id: number): string | undefined;
  /** The first `limit` pets in ascending id order, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): StoredPet[];
  /** {@link MemoryPetStore.list} as a JSON array, kept while it stays true (until the pets are replaced or reset). */
  listJson(limit: number, status?: PetStatus): string;
  /** The same object while the listing stays the same (a create makes a listing that holds it a new one). */
  listing(limit: number, status?: PetStatus): Listing;
  /** Every pet, in ascending id order. */
  all(): Pet[];
  allJson(): string;
  /** Drops every change since the store was seeded. */
  reset(): void;
  /** Holds exactly `pets` instead (ids must be unique safe integers); the next id follows the largest. */
  replace(pets: readonly Pet[]): void;
  /** Makes `pets` the seeded pets, what {@link PetStore.reset} returns to; holds them too unless `keepState`. */
  reseed(pets: readonly Pet[], keepState?: boolean): void;
}

const STATUSES = petStatuses();
const MAX_LISTINGS = 1_000;

/** The pets, column by column; ids ascend. */
interface Columns {
  count: number;
  ids: Float64Array;
  jsons: string[];
  /** Per status, in STATUSES order: the positions of its pets, ascending. */
  byStatus: Uint32Array[];
  statusCounts: number[];
  /** What the pets count against the budget. */
  bytes: number;
}

function columnsOf(pets: readonly Pet[], budget: number): Columns {
  const sorted = sortedById(pets);
  const columns: Columns = {
    count: 0,
    ids: new Float64Array(sorted.length),
    jsons: [],
    byStatus: STATUSES.map(() => new Uint32Array(0)),
    statusCounts: STATUSES.map(() => 0),
    bytes: 0,
  };
  for (const pet of sorted) append(columns, pet.id, pet, budget);
  return columns;
}

function copyOf(c: Columns): Columns {
  return {
    count: c.count,
    ids: c.ids.slice(0, c.count),
    jsons: c.jsons.slice(0, c.count),
    byStatus: c.byStatus.map((positions, s) => positions.slice(0, c.statusCounts[s])),
    statusCounts: [...c.statusCounts],
    bytes: c.bytes,
  };
}

/** The index of `status` in STATUSES, -1 for none; a RangeError for a status the spec does not list. */
function statusIndex(status: string | undefined): number {
  if (status === undefined) return -1;
  const s = STATUSES.indexOf(status as PetStatus);
  if (s === -1) throw new RangeError(`unknown pet status ${JSON.stringify(status)}`);
  return s;
}

/**
 * Adds one pet at the end and returns its JSON text. Throws a RangeError,
 * changing nothing, for what would not read back as a Pet: an id or
 * categoryId that is not a safe integer, a name that is not a string, a
 * status the spec does not list. The HTTP paths check all this before; this
 * guards the store's own API.
 */
function append(c: Columns, id: number, input: NewPet, budget: number): string {
  const s = statusIndex(input.status);
  if (!Number.isSafeInteger(id)) throw new RangeError(`pet id must be a safe integer, got ${id}`);
  if (typeof input.name !== 'string') throw new RangeError('pet name must be a string');
  if (!Number.isSafeInteger(input.categoryId))
    throw new RangeError(`pet categoryId must be a safe integer, got ${input.categoryId}`);
  const json = petJson(id, input);
  const bytes = c.bytes + petBytes(json);
  if (bytes > budget) throw new StoreFullError(bytes, budget);
  c.bytes = bytes;
  const at = c.count++;
  if (at === c.ids.length) c.ids = grown(c.ids, at);
  c.ids[at] = id;
  c.jsons.push(json);
  if (s !== -1) {
    const n = c.statusCounts[s]!++;
    if (n === c.byStatus[s]!.length) c.byStatus[s] = grown(c.byStatus[s]!, n);
    c.byStatus[s]![n] = at;
  }
  return json;
}

/** A copy of `array` with room for twice its `length` items (at least 16). */
function grown<T extends Float64Array | Uint32Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(Math.max(16, length * 2));
  bigger.set(array.subarray(0, length));
  return bigger;
}

/**
 * Makes a store in memory holding `initial` (in any order; ids must be unique safe integers), within `budget` bytes
 * ({@link petBytes} per pet; default {@link DEFAULT_STORE_BYTES}); with `initial` undefined, an empty store that
 * {@link PetStore.open} seeds (pets replaced meanwhile stay; the seeded ones become what reset returns to).
 */
export function createPetStore(initial: readonly Pet[] | undefined, budget = DEFAULT_STORE_BYTES): MemoryPetStore {
  let seeded = columnsOf(initial ?? [], budget);
  let opened = initial !== undefined;
  // Whether the pets were replaced since the store was made or reset: seeding late keeps them.
  let replaced = false;
  let c = copyOf(seeded);
  let nextId = 1;
  // Listings asked for, one memory per filter (0: none, 1 + i: the status of index i) by the count of pets they
  // hold: a repeated listing is one lookup. A create changes none of them: the new pet has the highest id, so it
  // comes last, and "the first n pets (of a status)" stays what it was; a listing that now holds it holds one more
  // pet, another entry. Only a replace, a reseed or a reset (load) forgets them.
  const listings = Array.from({ length: STATUSES.length + 1 }, () => new Map<number, Listing>());

  function load(columns: Columns): void {
    for (const memo of listings) memo.clear();
    c = columns;
    nextId = c.count === 0 ? 1 : c.ids[c.count - 1]! + 1;
  }
  load(c);

  /** The listing of the first `limit` pets (with `status`), kept until the pets are replaced or reset. */
  function listing(limit: number, status?: PetStatus): Listing {
    const s = statusIndex(status);
    // No listing is longer than the pets it can hold: the key is the count it lists, an exact number.
    const n = Math.min(wholeLimit(limit), s === -1 ? c.count : c.statusCounts[s]!);
    const memo = listings[s + 1]!;
    let kept = memo.get(n);
    if (kept === undefined) {
      kept = listingOf(c, n, s);
      // Bounded however it is called: the handler asks for at most 100 limits per filter.
      if (memo.size >= MAX_LISTINGS) memo.clear();
      memo.set(n, kept);
    }
    return kept;
  }

  function reseed(pets: readonly Pet[], keepState = false): void {
    seeded = columnsOf(pets, budget);
    if (!keepState) load(copyOf(seeded));
  }

  return {
    where: 'memory',
    get size() {
      return c.count;
    },
    get nextId() {
      return nextId;
    },
    get bytes() {
      return c.bytes;
    },
    add(input) {
      const id = nextId;
      if (!Number.isSafeInteger(id)) throw new IdsExhaustedError(c.ids[c.count - 1]);
      const json = append(c, id, input, budget);
      nextId++;
      return new StoredPet(id, json);
    },
    get(id) {
      const at = position(c, id);
      return at < 0 ? undefined : new StoredPet(id, c.jsons[at]!);
    },
    getJson(id) {
      const at = position(c, id);
      return at < 0 ? undefined : c.jsons[at];
    },
    list(limit, status) {
      const { at, length } = positions(c, wholeLimit(limit), statusIndex(status));
      return Array.from({ length }, (_, i) => new StoredPet(c.ids[at(i)]!, c.jsons[at(i)]!));
    },
    listJson: (limit, status) => listing(limit, status).json,
    listing,
    all: () => c.jsons.slice(0, c.count).map((json) => Object.freeze(JSON.parse(json) as Pet)),
    allJson: () => `[${c.jsons.slice(0, c.count).join(',')}]`,
    open(pets) {
      if (opened) return c.count;
      opened = true;
      const seeding = pets();
      const seed = (loaded: readonly Pet[]) => {
        reseed(loaded, replaced);
        return c.count;
      };
      return seeding instanceof Promise ? seeding.then(seed) : seed(seeding);
    },
    reset: () => {
      replaced = false;
      load(copyOf(seeded));
    },
    replace: (pets) => {
      load(columnsOf(pets, budget));
      replaced = true;
    },
    reseed,
  };
}

/** The position of the pet `id` in `c` (a binary search: ids ascend), or -1. */
function position(c: Columns, id: number): number {
  let low = 0;
  let high = c.count - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = c.ids[mid]!;
    if (found === id) return mid;
    if (found < id) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** The positions in `c` of the first `limit` pets, with the status of index `s` when it is not -1. */
function positions(c: Columns, limit: number, s: number): { at(i: number): number; length: number } {
  if (s === -1) return { at: (i) => i, length: Math.min(limit, c.count) };
  const list = c.byStatus[s]!;
  return { at: (i) => list[i]!, length: Math.min(limit, c.statusCounts[s]!) };
}

/** The listing of the first `n` pets in `c` (with the status of index `s`), as one JSON text. */
function listingOf(c: Columns, n: number, s: number): Listing {
  const { at, length } = positions(c, n, s);
  const parts = new Array<string>(length);
  for (let i = 0; i < length; i++) parts[i] = c.jsons[at(i)]!;
  // `join` makes one flat string: a template literal would make a tree of pieces (a ConsString).
  return new Listing(['[', parts.join(','), ']'].join(''));
}

/** A limit as a count of pets: a whole number, 0 for anything below 1 (or NaN). */
function wholeLimit(limit: number): number {
  return limit >= 1 ? Math.floor(limit) : 0;
}

/** `pets` in ascending id order (sorted only when they are not); throws on a repeated id. */
function sortedById(pets: readonly Pet[]): readonly Pet[] {
  let sorted = true;
  for (let i = 1; i < pets.length && sorted; i++) sorted = pets[i - 1]!.id < pets[i]!.id;
  const result = sorted ? pets : [...pets].sort((a, b) => a.id - b.id);
  for (let i = 1; i < result.length; i++) {
    if (result[i]!.id === result[i - 1]!.id) throw new Error(`duplicate pet id ${result[i]!.id}`);
  }
  return result;
}
