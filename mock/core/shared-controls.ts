/**
 * The controls of a mock on a database store ({@link SharedStore}): seeding
 * on first start, the pets view, reset and replace, each acting on the shared
 * store, so every instance on it sees the change.
 */
import type { Pet } from '../../spec/index.ts';
import { PetstoreMockError } from './errors.ts';
import type { PetsView } from './petstore-mock.ts';
import type { SharedStore } from './shared-store.ts';
import { StoreFullError } from './store.ts';

/** What createMock uses of a database store besides its operations. */
export interface SharedControls {
  /** Resolves once the store is open (and seeded, when it never was). */
  ready: Promise<void>;
  pets: PetsView;
  reset(): Promise<void>;
  replace(pets: readonly Pet[]): Promise<void>;
  petsJson(): Promise<string>;
}

const notHere = (what: string) =>
  new PetstoreMockError(
    'PETSTORE_MOCK_STORE_FAILED',
    `pets.${what} reads the pets at once, which a database store cannot: read GET /__control/pets (or the API) instead`,
  );

/** The controls of a mock on `store`, seeded from `seedPets()` when the store has never been seeded. */
export function sharedControls(store: SharedStore, seedPets: () => Promise<readonly Pet[]>): SharedControls {
  // The count this instance last saw: other instances change it too.
  let size = 0;
  const ready = store.open(seedPets).then((count) => {
    size = count;
  });
  return {
    ready,
    pets: {
      get size() {
        return size;
      },
      get: () => {
        throw notHere('get()');
      },
      all: () => {
        throw notHere('all()');
      },
    },
    reset: async () => {
      size = await store.reset();
    },
    replace: async (pets) => {
      try {
        await store.replace(pets);
      } catch (error) {
        if (error instanceof StoreFullError) throw new PetstoreMockError('PETSTORE_MOCK_STORE_FULL', error.message);
        throw error;
      }
      size = pets.length;
    },
    petsJson: () => store.allJson(),
  };
}
