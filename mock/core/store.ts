/**
 * The mock's in-memory state: pets by id, in ascending id order, with a list
 * per status so that a (filtered) listing costs O(limit), not O(store size).
 */
import { type NewPet, type Pet, type PetStatus, petStatuses } from '../../spec/index.ts';

/** A stored pet and its JSON text, serialised once, the first time it is needed. */
export class StoredPet {
  #json: string | undefined;
  constructor(readonly pet: Readonly<Pet>) {}
  /** The pet as JSON text. */
  get json(): string {
    return (this.#json ??= petJson(this.pet));
  }
}

/**
 * `JSON.stringify(pet)` for a pet made by {@link toPet} (its fields in that
 * order, ids safe integers), without walking the object: only the strings need
 * escaping. Each new pet is serialised once, for the answer to its POST.
 */
export function petJson({ id, name, categoryId, status }: Pet): string {
  const head = `{"id":${id},"name":${JSON.stringify(name)},"categoryId":${categoryId}`;
  return status === undefined ? `${head}}` : `${head},"status":${JSON.stringify(status)}}`;
}

/** The state of the mock, and the only code that changes it. */
export interface PetStore {
  /** Number of pets stored. */
  readonly size: number;
  /** Stores a new pet with the next id; unknown fields of `input` are not read. */
  add(input: NewPet): StoredPet;
  /** Looks a pet up by id. */
  get(id: number): StoredPet | undefined;
  /** The first `limit` pets in ascending id order, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): StoredPet[];
  /** {@link PetStore.list} as a JSON array, kept until the store next changes. */
  listJson(limit: number, status?: PetStatus): string;
  /** Every pet, in ascending id order. */
  all(): Pet[];
  /** Drops every change since the store was made: back to the seeded pets. */
  reset(): void;
  /** Holds exactly `pets` instead (ids must be unique safe integers); the next id follows the largest. */
  replace(pets: readonly Pet[]): void;
}

const STATUSES = petStatuses();
const MAX_LISTINGS = 1_000;

/** Copies only the fields a Pet has, in a fixed order, so nothing else is ever stored. */
export function toPet(id: number, input: NewPet): Pet {
  const pet: Pet = { id, name: input.name, categoryId: input.categoryId };
  if (input.status !== undefined) pet.status = input.status;
  return Object.freeze(pet);
}

/** Makes a store holding `initial` (sorted by id; ids must be unique safe integers). */
export function createPetStore(initial: readonly Pet[]): PetStore {
  const seeded = sortedById(initial.map((p) => new StoredPet(toPet(p.id, p))));
  // Ids only ever grow (new ids follow the largest), so `ordered` stays sorted
  // and a binary search replaces a Map of a million entries.
  let ordered: StoredPet[] = [];
  let byStatus = new Map<PetStatus, StoredPet[]>();
  let nextId = 1;
  // Listings asked for since the last change, by status and limit: a repeated listing is one lookup.
  const listings = new Map<number, string>();

  function index(entry: StoredPet): void {
    if (listings.size > 0) listings.clear();
    ordered.push(entry);
    if (entry.pet.status !== undefined) byStatus.get(entry.pet.status)!.push(entry);
  }

  function load(entries: readonly StoredPet[]): void {
    listings.clear();
    ordered = [];
    byStatus = new Map(STATUSES.map((s) => [s, []]));
    for (const entry of entries) index(entry);
    nextId = entries.length === 0 ? 1 : entries[entries.length - 1]!.pet.id + 1;
  }
  const reset = () => load(seeded);
  reset();

  return {
    get size() {
      return ordered.length;
    },
    add(input) {
      const entry = new StoredPet(toPet(nextId++, input));
      index(entry);
      return entry;
    },
    get: (id) => findById(ordered, id),
    list(limit, status) {
      const source = status === undefined ? ordered : byStatus.get(status)!;
      return source.slice(0, limit);
    },
    listJson(limit, status) {
      // A number, not `${status}:${limit}`: a new string per call would be hashed per call.
      const key = limit * (STATUSES.length + 1) + (status === undefined ? 0 : STATUSES.indexOf(status) + 1);
      let json = listings.get(key);
      if (json === undefined) {
        const source = status === undefined ? ordered : byStatus.get(status)!;
        json = '[';
        for (let i = 0; i < limit && i < source.length; i++) json += (i === 0 ? '' : ',') + source[i]!.json;
        json += ']';
        // Bounded however it is called: the handler asks for at most 100 limits of 5 filters.
        if (listings.size >= MAX_LISTINGS) listings.clear();
        listings.set(key, json);
      }
      return json;
    },
    all: () => ordered.map((e) => e.pet),
    reset,
    replace: (pets) => load(sortedById(pets.map((p) => new StoredPet(toPet(p.id, p))))),
  };
}

function sortedById(entries: StoredPet[]): StoredPet[] {
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i++) sorted = entries[i - 1]!.pet.id < entries[i]!.pet.id;
  if (!sorted) entries.sort((a, b) => a.pet.id - b.pet.id);
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.pet.id === entries[i - 1]!.pet.id) throw new Error(`duplicate pet id ${entries[i]!.pet.id}`);
  }
  return entries;
}

function findById(ordered: readonly StoredPet[], id: number): StoredPet | undefined {
  let low = 0;
  let high = ordered.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = ordered[mid]!;
    if (found.pet.id === id) return found;
    if (found.pet.id < id) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}
