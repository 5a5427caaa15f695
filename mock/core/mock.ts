/**
 * One mock, whatever carries its requests: the seeded store, the accepted keys
 * and the handler over them. Every adapter (mock/node, and the MSW and undici
 * adapters) is built over {@link createMock}, so each behaves the same.
 */
import type { Pet } from '../../spec/index.ts';
import { createHandler, type Handler } from './handler.ts';
import { DEFAULT_COUNT, DEFAULT_SEED, seedPets } from './seed.ts';
import { createPetStore, type PetStore } from './store.ts';

/** The development key used when no key is configured. Printed at start; never use it outside a local mock. */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/** Options for {@link createMock}. */
export interface MockOptions {
  /** Faker seed; the same seed gives the same pets. */
  seed?: number;
  /** Number of pets to seed (0 to 1,000,000; default 50). */
  count?: number;
  /** Start from these pets instead of faker (`seed` and `count` are then ignored). */
  pets?: readonly Pet[];
  /** Accepted bearer keys (default: the development key). */
  apiKeys?: readonly string[];
  /** CORS headers and preflights (default on). */
  cors?: boolean;
}

/** A mock with no transport: hand it requests, read and reset its state. */
export interface Mock {
  /** Answers one request. */
  handle: Handler;
  /** The state, for reading in tests. */
  store: PetStore;
  /** The accepted keys. */
  apiKeys: readonly string[];
  /** Back to the seeded pets. */
  reset(): void;
}

/** Seeds a store and builds the handler over it. */
export function createMock(options: MockOptions = {}): Mock {
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? [...options.apiKeys] : [DEFAULT_API_KEY];
  const pets = options.pets ?? seedPets({ seed: options.seed ?? DEFAULT_SEED, count: options.count ?? DEFAULT_COUNT });
  const store = createPetStore(pets);
  return {
    handle: createHandler({ store, apiKeys, cors: options.cors ?? true }),
    store,
    apiKeys,
    reset: () => store.reset(),
  };
}
