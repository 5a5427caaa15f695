/**
 * The seed's defaults, and its pets without faker where they ship as data: the
 * default seed's first 50 pets are generated into
 * mock/core/generated/default-pets.ts (`npm run fixtures`, checked against
 * faker by a test), so a plain start never loads faker; any other seed or a
 * larger count loads it.
 */
import type { Pet } from '../../spec/index.ts';
import { DEFAULT_SEED_PETS } from './generated/default-pets.ts';
import { checkCount, checkSeed, DEFAULT_COUNT, DEFAULT_SEED, type SeedOptions } from './seed-options.ts';

export { checkCount, checkSeed, DEFAULT_COUNT, DEFAULT_SEED, MAX_COUNT, type SeedOptions } from './seed-options.ts';

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
