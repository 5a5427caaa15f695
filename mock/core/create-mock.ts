/**
 * createMock: a mock seeded synchronously, what the MSW and undici adapters
 * and in-process users call. It imports faker (through seed.ts), though the
 * default seed's pets ship as data and are served from there.
 */
import { shippedPets } from './default-pets.ts';
import { assembleMock, type Mock, type MockOptions } from './mock.ts';
import { seedPets } from './seed.ts';

/** Seeds a store and builds the handler, wrapped in its layers, over it. */
export function createMock(options: MockOptions = {}): Mock {
  const seeding = { seed: options.seed, count: options.count };
  // In process no other page can reach the mock, so every origin is granted unless the caller says otherwise.
  const inProcess = { ...options, corsOrigins: options.corsOrigins ?? ['*'] };
  return assembleMock(inProcess, options.pets ?? shippedPets(seeding) ?? seedPets(seeding));
}
