import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewPet, Pet, PetStatus } from '../../spec/index.ts';
import { seedPets } from './seed.ts';
import { createPetStore, type MemoryPetStore as PetStore, petJson } from './store.ts';

/** The Pet a store keeps for `input` under `id`: its fields only, in the spec's order (the oracle for petJson). */
function toPet(id: number, input: NewPet): Pet {
  const pet: Pet = { id, name: input.name, categoryId: input.categoryId };
  if (input.status !== undefined) pet.status = input.status;
  return pet;
}

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

describe('PetStore.listing', () => {
  it('is the same Listing while the store is unchanged, a new one after every kind of change, its bytes its text as UTF-8', () => {
    const store = createPetStore([{ id: 1, name: 'Zoë 🐈', categoryId: 1, status: 'sold' }]);
    const first = store.listing(5, 'sold');
    expect(store.listing(5, 'sold')).toBe(first);
    expect(new TextDecoder().decode(first.bytes)).toBe(first.json);
    expect(first.bytes.length).toBe(Buffer.byteLength(first.json));
    const changes: [string, () => void][] = [
      ['add', () => store.add({ name: 'Rex', categoryId: 1, status: 'sold' })],
      ['replace', () => store.replace([{ id: 4, name: 'Only', categoryId: 9, status: 'sold' }])],
      ['reseed', () => store.reseed([{ id: 7, name: 'Seed', categoryId: 2, status: 'sold' }])],
      ['reset', () => store.reset()],
    ];
    for (const [name, change] of changes) {
      const before = store.listing(5, 'sold');
      change();
      const after = store.listing(5, 'sold');
      expect(after, name).not.toBe(before);
      expect(after.json, name).toBe(fresh(store, 5, 'sold'));
      expect(new TextDecoder().decode(after.bytes), name).toBe(after.json);
    }
  });

  it('keeps its bytes as a Buffer in Node, which node:http writes as they are (another Uint8Array it wraps anew)', () => {
    const listing = createPetStore([{ id: 1, name: 'Zoë', categoryId: 1 }]).listing(5, undefined);
    expect(Buffer.isBuffer(listing.bytes)).toBe(true);
    expect(listing.bytes).toBe(listing.bytes);
  });
});

describe('PetStore.listing across a create', () => {
  it('gives the same Listing for each listing a new pet is not in (without a filter, of another status, of its status already full), a new one where it joins', () => {
    const store = createPetStore([
      { id: 1, name: 'A', categoryId: 1, status: 'sold' },
      { id: 2, name: 'B', categoryId: 1, status: 'available' },
      { id: 3, name: 'C', categoryId: 1, status: 'sold' },
    ]);
    const kept = [store.listing(2), store.listing(5, 'available'), store.listing(2, 'sold'), store.listing(3)];
    const changed = [store.listing(5, 'sold'), store.listing(10)];
    store.add({ name: 'Rex', categoryId: 1, status: 'sold' });
    const again = [store.listing(2), store.listing(5, 'available'), store.listing(2, 'sold'), store.listing(3)];
    for (const [i, listing] of again.entries()) expect(listing, `listing ${i}`).toBe(kept[i]);
    for (const [i, [limit, status]] of (
      [
        [5, 'sold'],
        [10, undefined],
      ] as const
    ).entries()) {
      expect(store.listing(limit, status)).not.toBe(changed[i]);
      expect(store.listing(limit, status).json).toBe(fresh(store, limit, status));
    }
    expect(store.listing(5, 'sold').json).toContain('"Rex"');
  });
});

describe('PetStore, its methods taken apart', () => {
  it('lists when listJson and listing are called detached, and tells statuses apart at any limit', () => {
    const store = createPetStore(seedPets({ seed: 3, count: 12 }));
    const { listJson, listing } = store;
    expect(listJson(5, 'sold')).toBe(fresh(store, 5, 'sold'));
    expect(listing(5).json).toBe(fresh(store, 5));
    for (const limit of [2 ** 51, 2 ** 53, Number.MAX_VALUE, Number.POSITIVE_INFINITY])
      for (const status of [undefined, 'available', 'pending', 'sold'] as const)
        expect(store.listJson(limit, status), `${limit} ${status}`).toBe(fresh(store, 12, status));
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
        expect(petJson(id, newPet)).toBe(JSON.stringify(toPet(id, newPet)));
      }),
      { numRuns: 1_000 },
    );
    // Property tests take seconds on a loaded machine: a time limit there is no verdict on the store.
  }, 30_000);
});

describe('PetStore against a plain array of pets', () => {
  const status = fc.constantFrom<PetStatus | undefined>('available', 'pending', 'sold', undefined);
  const newPet = fc.record({ name: fc.string({ maxLength: 8 }), categoryId: fc.integer(), status });
  const pets = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 40, size: 'max' })
    .chain((ids) => fc.tuple(...ids.map((id) => newPet.map((p) => toPet(id, p)))));
  const op = fc.oneof(
    { weight: 8, arbitrary: newPet.map((p) => ({ kind: 'add' as const, p })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
    { weight: 1, arbitrary: pets.map((ps) => ({ kind: 'replace' as const, ps })) },
    // Listings between the changes: what the store remembers of one must never outlive a change it misses.
    {
      weight: 6,
      arbitrary: fc
        .record({ limit: fc.integer({ min: 0, max: 12 }), s: status })
        .map((l) => ({ kind: 'list' as const, ...l })),
    },
  );

  it('reads back, lists, resets and replaces as the array does, past every growth of its columns', () => {
    fc.assert(
      fc.property(pets, fc.array(op, { maxLength: 120, size: 'max' }), (seeded, ops) => {
        const store = createPetStore(seeded);
        const sorted = (ps: readonly Pet[]) => [...ps].sort((a, b) => a.id - b.id);
        let model = sorted(seeded);
        for (const o of ops) {
          if (o.kind === 'add') {
            const id = model.length === 0 ? 1 : model[model.length - 1]!.id + 1;
            const added = store.add(o.p);
            model.push(toPet(id, o.p));
            expect([added.id, added.json]).toEqual([id, JSON.stringify(model.at(-1))]);
          } else if (o.kind === 'list') {
            const listed = model.filter((p) => o.s === undefined || p.status === o.s).slice(0, o.limit);
            expect(store.listJson(o.limit, o.s)).toBe(JSON.stringify(listed));
          } else if (o.kind === 'reset') {
            store.reset();
            model = sorted(seeded);
          } else {
            store.replace(o.ps);
            model = sorted(o.ps);
          }
        }
        expect(store.size).toBe(model.length);
        expect(store.all()).toEqual(model);
        expect(store.allJson()).toBe(JSON.stringify(model));
        for (const s of ['available', 'pending', 'sold', undefined] as const) {
          for (const limit of [1, 7, 30, 200]) {
            const listed = model.filter((p) => s === undefined || p.status === s).slice(0, limit);
            expect(store.listJson(limit, s)).toBe(JSON.stringify(listed));
            expect(store.list(limit, s).map((e) => [e.id, e.pet])).toEqual(listed.map((p) => [p.id, p]));
          }
        }
        for (const pet of model) {
          expect(store.getJson(pet.id)).toBe(JSON.stringify(pet));
          const got = store.get(pet.id)!;
          expect([got.id, got.json, got.pet]).toEqual([pet.id, JSON.stringify(pet), pet]);
        }
        expect([store.get(0), store.getJson(model.length === 0 ? 1 : model.at(-1)!.id + 1)]).toEqual([
          undefined,
          undefined,
        ]);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('refuses a repeated id, in order or not', () => {
    const pet = (id: number) => toPet(id, { name: 'x', categoryId: 1 });
    expect(() => createPetStore([pet(2), pet(1), pet(2)])).toThrow('duplicate pet id 2');
    expect(() => createPetStore([]).replace([pet(1), pet(1)])).toThrow('duplicate pet id 1');
  });

  it('grows its columns many times over: 2,000 pets, a third of them sold', () => {
    const store = createPetStore([]);
    const model: Pet[] = [];
    for (let i = 1; i <= 2_000; i++) {
      const input = { name: `p${i}`, categoryId: i, ...(i % 3 === 0 ? { status: 'sold' as const } : {}) };
      store.add(input);
      model.push(toPet(i, input));
    }
    expect(store.listJson(1_000, 'sold')).toBe(
      JSON.stringify(model.filter((p) => p.status === 'sold').slice(0, 1_000)),
    );
    expect(store.all()).toEqual(model);
  });

  it('refuses what would not read back as a Pet, changing nothing', () => {
    const store = createPetStore([]);
    for (const bad of [{ name: 'x', categoryId: Number.NaN }, { categoryId: 1 }, { name: 'x', categoryId: 2 ** 53 }])
      expect(() => store.add(bad as never)).toThrow(RangeError);
    expect(() => createPetStore([{ id: 1.5, name: 'x', categoryId: 1 }])).toThrow('pet id must be a safe integer');
    expect(() => store.listJson(5, 'lost' as PetStatus)).toThrow('unknown pet status "lost"');
    expect([store.size, store.listJson(-1), store.listJson(Number.NaN)]).toEqual([0, '[]', '[]']);
    store.replace([{ id: Number.MAX_SAFE_INTEGER, name: 'last', categoryId: 1 }]);
    expect(() => store.add({ name: 'x', categoryId: 1 })).toThrow('no pet id is left');
    expect(store.size).toBe(1);
  });

  it('refuses a status the spec does not list, changing nothing', () => {
    const store = createPetStore([]);
    expect(() => store.add({ name: 'x', categoryId: 1, status: 'lost"' as PetStatus })).toThrow(
      'unknown pet status "lost\\""',
    );
    expect([store.size, store.add({ name: 'y', categoryId: 1 }).id]).toEqual([0, 1]);
  });
});
