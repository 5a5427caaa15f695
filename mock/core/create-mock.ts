/**
 * createMock: a mock seeded synchronously, what the MSW and undici adapters
 * and in-process users call. It imports faker (through seed.ts), though the
 * default seed's pets ship as data and are served from there.
 */
import { shippedPets } from './default-pets.ts';
import { assembleMock, type Mock, type MockOptions, type MountPrefix } from './mock.ts';
import { checkMockOptions } from './options.ts';
import { seedPets } from './seed.ts';

/** Seeds a store and builds the handler, wrapped in its layers, over it; `mount.prefix` is what the adapter serves it under (URLs the mock writes start with it). */
export function createMock(options: MockOptions = {}, mount: MountPrefix = {}): Mock {
  checkMockOptions(options);
  const seeding = { seed: options.seed, count: options.count };
  return assembleMock(options, options.pets ?? shippedPets(seeding) ?? seedPets(seeding), mount);
}
