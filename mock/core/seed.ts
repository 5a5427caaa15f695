/**
 * Seeded pets: the same seed and count always give the same pets, because
 * every value comes from one faker instance seeded once. The node server and
 * the command import this module (and so faker) only for pets that do not
 * ship as data (default-pets.ts).
 */
import type { Faker } from '@faker-js/faker';
// The English-only entry loads in a fifth of the time of the full package,
// which pulls in every locale; its instance lends us the class and the data.
import { faker as english } from '@faker-js/faker/locale/en';
import type { Pet, PetStatus } from '../../spec/index.ts';
import { checkCount, DEFAULT_COUNT, DEFAULT_SEED, type SeedOptions } from './seed-options.ts';

const STATUS_WEIGHTS: { weight: number; value: PetStatus | undefined }[] = [
  { weight: 35, value: 'available' },
  { weight: 25, value: 'pending' },
  { weight: 25, value: 'sold' },
  { weight: 15, value: undefined },
];

/** Makes `count` pets with ids 1..count, names and categories from faker seeded with `seed`. */
export function seedPets({ seed = DEFAULT_SEED, count = DEFAULT_COUNT }: SeedOptions = {}): Pet[] {
  checkCount(count);
  // A fresh instance per call, as before: English definitions (with faker's base
  // fallbacks, never reached by the pet names used here), seeded once.
  const faker = new (english.constructor as typeof Faker)({ locale: english.rawDefinitions, seed });
  const pets: Pet[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const status = faker.helpers.weightedArrayElement(STATUS_WEIGHTS);
    const pet: Pet = { id: i + 1, name: faker.animal.petName(), categoryId: faker.number.int({ min: 1, max: 12 }) };
    if (status !== undefined) pet.status = status;
    pets[i] = pet;
  }
  return pets;
}
