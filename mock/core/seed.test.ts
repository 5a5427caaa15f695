import { describe, expect, it } from 'vitest';
import { getValidator } from '../../spec/index.ts';
import { DEFAULT_COUNT, DEFAULT_SEED, loadSeededPets, MAX_COUNT, shippedPets } from './default-pets.ts';
import { DEFAULT_SEED_PETS } from './generated/default-pets.ts';
import { createMock } from './mock.ts';
import { seedPets } from './seed.ts';

describe('seedPets', () => {
  it('gives the same pets for the same seed, other pets for another seed', () => {
    expect(seedPets({ seed: 7, count: 150 })).toEqual(seedPets({ seed: 7, count: 150 }));
    expect(seedPets({ seed: 8, count: 150 })).not.toEqual(seedPets({ seed: 7, count: 150 }));
  });

  it('makes valid pets with ids ascending from 1, every status and some without one', () => {
    const pets = seedPets();
    expect(pets).toHaveLength(50);
    expect(getValidator('Pets')(pets)).toBe(true);
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const statuses = new Set(pets.map((p) => p.status));
    expect([...statuses].sort()).toEqual(['available', 'pending', 'sold', undefined]);
  });

  it.each([-1, 1.5, 1_000_001])('refuses count %d', (count) => {
    expect(() => seedPets({ count })).toThrow(expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }));
  });

  it('accepts a count of zero', () => {
    expect(seedPets({ count: 0 })).toEqual([]);
  });
});

describe('the default pets that ship as data (default-pets.ts)', () => {
  it('are what faker makes for the default seed, for every count they cover, as fresh copies', () => {
    const faker = seedPets();
    expect(DEFAULT_SEED_PETS).toEqual(faker);
    for (let count = 0; count <= DEFAULT_COUNT; count++) {
      expect(shippedPets({ count })).toEqual(seedPets({ count }));
    }
    const first = shippedPets()!;
    first[0]!.name = 'Changed';
    expect(shippedPets()![0]!.name).toBe(faker[0]!.name);
  });

  it('are not used for another seed or a larger count, and refuse the counts seedPets refuses', () => {
    expect(shippedPets({ seed: 7, count: 3 })).toBeUndefined();
    expect(shippedPets({ count: DEFAULT_COUNT + 1 })).toBeUndefined();
    for (const count of [-1, 1.5, MAX_COUNT + 1])
      expect(() => shippedPets({ count })).toThrow(expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }));
  });

  it('are loaded, or else seeded by faker, by loadSeededPets: the same pets as seedPets either way', async () => {
    for (const options of [
      {},
      { count: 3 },
      { count: DEFAULT_COUNT + 10 },
      { seed: 7, count: 20 },
      { seed: DEFAULT_SEED },
    ]) {
      expect(await loadSeededPets(options)).toEqual(seedPets(options));
    }
    await expect(loadSeededPets({ count: -1 })).rejects.toThrow(
      expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }),
    );
  });
});

describe('createMock with pets that do not ship as data', () => {
  it('loads faker in the background: requests wait for the pets, and ready resolves once they are there', async () => {
    const mock = createMock({ seed: 7, count: 3, apiKeys: ['k'] });
    const answer = await mock.fetch({ method: 'GET', url: '/v1/pets', headers: { authorization: 'Bearer k' } });
    expect(JSON.parse(answer.body)).toEqual(seedPets({ seed: 7, count: 3 }));
    await mock.ready;
    expect(await mock.pets.all()).toEqual(seedPets({ seed: 7, count: 3 }));
  });

  it('keeps pets replaced before faker loaded, and reset then returns to the seeded pets', async () => {
    const mock = createMock({ seed: 7, count: 3 });
    mock.replacePets([{ id: 9, name: 'Only', categoryId: 1 }]);
    await mock.ready;
    expect(await mock.pets.all()).toEqual([{ id: 9, name: 'Only', categoryId: 1 }]);
    mock.reset();
    expect(await mock.pets.all()).toEqual(seedPets({ seed: 7, count: 3 }));
  });

  it('is ready at once for the pets that ship', async () => {
    const mock = createMock({ count: 3 });
    expect(mock.pets.size).toBe(3);
    await mock.ready;
  });
});
