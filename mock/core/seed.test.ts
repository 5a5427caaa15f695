import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PETS_FIXTURE_PATH, renderPetsFixture } from '../fixtures/generate.ts';
import { getValidator } from '../spec/index.ts';
import { loadPetsFile } from './fixtures.ts';
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
    expect(() => seedPets({ count })).toThrow(RangeError);
  });

  it('accepts a count of zero', () => {
    expect(seedPets({ count: 0 })).toEqual([]);
  });
});

describe('loadPetsFile', () => {
  it.each([
    [[{ id: 2 ** 50 + 1, name: 'Far', categoryId: 1 }], /outside 1\.\.2\^50/],
    [
      [
        { id: 1, name: 'A', categoryId: 1 },
        { id: 1, name: 'B', categoryId: 1 },
      ],
      /appears twice/,
    ],
    [[{ id: 1, name: 'A' }], /not a JSON array of pets/],
    [{ id: 1 }, /not a JSON array of pets/],
  ])('refuses %j', (content, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-fixtures-'));
    const file = join(dir, 'pets.json');
    writeFileSync(file, JSON.stringify(content));
    expect(() => loadPetsFile(file)).toThrow(message);
  });
});

describe('fixtures/pets.json', () => {
  it('is exactly what `npm run fixtures` writes, and loads as the default seed', () => {
    expect(readFileSync(PETS_FIXTURE_PATH, 'utf8')).toBe(renderPetsFixture());
    expect(loadPetsFile(PETS_FIXTURE_PATH)).toEqual(seedPets());
  });
});
