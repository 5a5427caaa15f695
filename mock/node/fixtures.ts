/**
 * Loading pets from a JSON file (`--fixtures`): every entry must be a Pet by
 * the spec's schema, with a unique id that JavaScript holds exactly.
 */
import { readFileSync } from 'node:fs';
import { describeSchemaErrors, getValidator, type Pet } from '../../spec/index.ts';
import { PetstoreMockError } from '../core/errors.ts';

const invalid = (message: string) => new PetstoreMockError('PETSTORE_MOCK_INVALID_PETS', message);

/** The largest id a fixtures file may hold: 2^50. */
const MAX_FIXTURE_ID = 2 ** 50;

/** Reads and validates a JSON array of pets; throws a PetstoreMockError (`PETSTORE_MOCK_INVALID_PETS`) naming the first problem. */
export function loadPetsFile(path: string): Pet[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw invalid(`cannot read pets from ${path}: ${(error as Error).message}`);
  }
  const validate = getValidator('Pets');
  if (!validate(data))
    throw invalid(
      `${path} is not a JSON array of pets: ${describeSchemaErrors(validate.errors).slice(0, 3).join('; ')}`,
    );
  const pets = data as Pet[];
  const seen = new Set<number>();
  for (const [index, pet] of pets.entries()) {
    // Ids must leave room for new pets after them (about 8e15), so every id the mock assigns stays exact.
    if (
      !Number.isSafeInteger(pet.id) ||
      pet.id < 1 ||
      pet.id > MAX_FIXTURE_ID ||
      !Number.isSafeInteger(pet.categoryId)
    ) {
      throw invalid(`${path}: pet at index ${index} has an id outside 1..2^50 or a categoryId beyond 2^53`);
    }
    if (seen.has(pet.id)) throw invalid(`${path}: pet id ${pet.id} appears twice`);
    seen.add(pet.id);
  }
  return pets;
}
