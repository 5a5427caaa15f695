/**
 * What seeding takes, and its checks: below both the shipped pets
 * (default-pets.ts) and faker's seeding (seed.ts), which each import it.
 */
import { badOption } from './errors.ts';

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
