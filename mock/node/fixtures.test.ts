import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PETS_MODULE_PATH,
  PETS_FIXTURE_PATH,
  renderDefaultPetsModule,
  renderPetsFixture,
} from '../../fixtures/generate.ts';
import { seedPets } from '../core/seed.ts';
import { loadPetsFile } from './fixtures.ts';

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

describe('mock/core/generated/default-pets.ts', () => {
  it('is exactly what `npm run fixtures` writes from faker', () => {
    expect(readFileSync(DEFAULT_PETS_MODULE_PATH, 'utf8')).toBe(renderDefaultPetsModule());
  });
});
