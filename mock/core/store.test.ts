import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seedPets } from './seed.ts';
import { createPetStore, type PetStore, petJson, toPet } from './store.ts';

/** What listJson must equal: the listing, serialised now. */
function fresh(store: PetStore, limit: number, status?: 'available' | 'pending' | 'sold'): string {
  return JSON.stringify(store.list(limit, status).map((e) => e.pet));
}

describe('PetStore.listJson', () => {
  it('equals the listing serialised, before and after every kind of change', () => {
    const store = createPetStore(seedPets({ seed: 3, count: 12 }));
    const check = () => {
      for (const status of [undefined, 'available', 'pending', 'sold'] as const)
        for (const limit of [1, 5, 20]) expect(store.listJson(limit, status)).toBe(fresh(store, limit, status));
    };
    check();
    store.add({ name: 'Rex', categoryId: 1, status: 'sold' });
    check();
    store.add({ name: 'Tom', categoryId: 2 });
    check();
    store.replace([{ id: 4, name: 'Only', categoryId: 9, status: 'pending' }]);
    check();
    store.reset();
    check();
  });

  it('lists nothing as [] and stays bounded however many listings are asked for', () => {
    const store = createPetStore([]);
    expect(store.listJson(20)).toBe('[]');
    for (let limit = 1; limit <= 3_000; limit++) store.listJson(limit);
    store.add({ name: 'Rex', categoryId: 1 });
    expect(store.listJson(2_999)).toBe(fresh(store, 2_999));
  });
});

describe('petJson', () => {
  it('equals JSON.stringify of the stored pet, whatever its name and numbers', () => {
    const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    const input = fc.record(
      {
        name: fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom('"', '\\', '\u2028', '\ud800', '</script>'),
        ),
        categoryId: fc.oneof(safe, fc.constant(-0)),
        status: fc.constantFrom('available', 'pending', 'sold'),
      },
      { requiredKeys: ['name', 'categoryId'] },
    );
    fc.assert(
      fc.property(safe, input, (id, newPet) => {
        const pet = toPet(id, newPet);
        expect(petJson(pet)).toBe(JSON.stringify(pet));
      }),
      { numRuns: 3_000 },
    );
  });
});
