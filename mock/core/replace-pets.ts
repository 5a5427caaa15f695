/**
 * Validation of a whole replacement state (`PUT /__control/pets`,
 * `replacePets()`): a JSON array of Pets, each checked against the spec's Pet
 * schema, with ids unique and every integer kept exactly.
 */
import { getValidator, type Pet } from '../../spec/index.ts';
import { PetstoreMockError } from './errors.ts';

const validatePet = getValidator('Pet');

function invalid(message: string): PetstoreMockError {
  return new PetstoreMockError('PETSTORE_MOCK_INVALID_PETS', message);
}

/** Throws a {@link PetstoreMockError} naming the first bad item's index and field; returns the pets otherwise. */
export function validatePets(input: unknown): Pet[] {
  if (!Array.isArray(input)) throw invalid('the body must be a JSON array of Pets');
  const ids = new Set<number>();
  input.forEach((item: unknown, index) => {
    if (!validatePet(item)) {
      const error = validatePet.errors![0]!;
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      const field = missing ?? error.instancePath.slice(1).replaceAll('/', '.');
      const what = missing === undefined ? error.message : 'is required';
      throw invalid(`pets[${index}]${field === '' ? '' : `.${field}`} ${what}`);
    }
    const pet = item as Pet;
    if (!(Number.isSafeInteger(pet.id) && pet.id >= 1))
      throw invalid(`pets[${index}].id must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
    if (!Number.isSafeInteger(pet.categoryId))
      throw invalid(`pets[${index}].categoryId must be kept exactly: at most ${Number.MAX_SAFE_INTEGER} in size`);
    if (ids.has(pet.id)) throw invalid(`pets[${index}].id ${pet.id} is used twice`);
    ids.add(pet.id);
  });
  return input as Pet[];
}
