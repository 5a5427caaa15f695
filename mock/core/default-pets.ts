/**
 * The seed's defaults, and its pets without faker where they ship as data: the
 * default seed's first 50 pets are generated into
 * mock/core/generated/default-pets.ts (`npm run fixtures`, checked against
 * faker by a test), so a plain start never loads faker; any other seed or a
 * larger count loads it.
 */
import type { Pet } from '../../spec/index.ts';
import { badOption } from './errors.ts';
import { DEFAULT_SEED_PETS } from './generated/default-pets.ts';

/** The seed used when none is given, so two plain starts serve identical data. */
export const DEFAULT_SEED = 20301205;
/** The number of pets seeded when no count is given. */
export const DEFAULT_COUNT = 50;
/** The largest count the mock accepts. */
export const MAX_COUNT = 1_000_000;

/** Options for seeding pets. */
export interface SeedOptions {
  seed?: number;
  count?: number;
}

/** Throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) unless `count` is an integer from 0 to {@link MAX_COUNT}. */
export function checkCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_COUNT) {
    throw badOption('count', `must be an integer from 0 to ${MAX_COUNT}, got ${String(count)}`);
  }
}

/** Throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) unless `seed` is an integer (faker's seeds are). */
export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed)) throw badOption('seed', `must be an integer, got ${String(seed)}`);
}

/** The pets the seed makes, as fresh copies, when they ship as data (the default seed, up to 50); else undefined. */
export function shippedPets({ seed = DEFAULT_SEED, count = DEFAULT_COUNT }: SeedOptions = {}): Pet[] | undefined {
  checkCount(count);
  checkSeed(seed);
  // Each pet depends only on the draws before it, so a smaller count is a prefix of the larger.
  if (seed !== DEFAULT_SEED || count > DEFAULT_SEED_PETS.length) return undefined;
  return DEFAULT_SEED_PETS.slice(0, count).map((pet) => ({ ...pet }));
}

/** The pets seedPets makes for these options, loading faker only when they do not ship as data. */
export async function loadSeededPets(options: SeedOptions = {}): Promise<Pet[]> {
  return shippedPets(options) ?? (await import('./seed.ts')).seedPets(options);
}
