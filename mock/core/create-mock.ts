/**
 * createMock: a mock made synchronously, what the MSW and undici adapters and
 * in-process users call. The default seed's pets ship as data and are served
 * from there; only another seed or a larger count loads faker, by a dynamic
 * import, so a bundle (or a process) that never asks for one never carries it.
 * Until those pets are made, requests wait for them and `ready` is pending.
 */
import { shippedPets } from './default-pets.ts';
import { assembleMock, type Mock, type MockOptions, type MountPrefix } from './mock.ts';
import { checkMockOptions } from './options.ts';

/** Seeds a store and builds the handler, wrapped in its layers, over it; `mount.prefix` is what the adapter serves it under (URLs the mock writes start with it). */
export function createMock(options: MockOptions = {}, mount: MountPrefix = {}): Mock {
  checkMockOptions(options);
  const seeding = { seed: options.seed, count: options.count };
  // In process no other page can reach the mock, so every origin is granted unless the caller says otherwise.
  options = { ...options, corsOrigins: options.corsOrigins ?? ['*'] };
  const pets = options.pets ?? shippedPets(seeding);
  if (pets !== undefined) return assembleMock(options, pets, mount);
  const mock = assembleMock(options, [], mount);
  let replaced = false;
  let seeded = false;
  const ready = import('./seed.ts').then(({ seedPets }) => {
    // Pets replaced in process meanwhile stay; the seeded ones become what reset returns to.
    mock.store.reseed(seedPets(seeding), replaced);
    seeded = true;
  });
  const { respond, handle } = mock;
  return {
    ...mock,
    ready,
    respond: (request) => (seeded ? respond(request) : ready.then(() => respond(request))),
    handle: (request) => (seeded ? handle(request) : ready.then(() => handle(request))),
    replacePets: (input) => {
      mock.replacePets(input);
      replaced = true;
    },
    reset: () => {
      mock.reset();
      replaced = false;
    },
  };
}
