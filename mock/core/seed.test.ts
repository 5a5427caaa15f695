import { describe, expect, it } from 'vitest';
import { getValidator } from '../../spec/index.ts';
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
