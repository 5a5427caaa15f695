import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getValidator, MAX_SCHEMA_ERRORS, type SchemaName } from '../index.ts';
import { readSpecYaml } from './generate.ts';
import { compileValidator, inlineFormatsSource } from './validators.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Values of every shape the schemas meet: the suite's invalid bodies, the seeded pets, and edge values. */
function corpus(): unknown[] {
  const invalid = JSON.parse(readFileSync(`${ROOT}fixtures/invalid-new-pets.json`, 'utf8')) as {
    bodies: { body: string }[];
  };
  const bodies = invalid.bodies.flatMap(({ body }) => {
    try {
      return [JSON.parse(body.replaceAll('{{name}}', 'Rex')) as unknown];
    } catch {
      return [];
    }
  });
  const pets = JSON.parse(readFileSync(`${ROOT}fixtures/pets.json`, 'utf8')) as unknown[];
  return [
    ...bodies,
    ...pets.slice(0, 10),
    pets,
    [...pets.slice(0, 3), { id: 1, name: 'Rex', categoryId: 1, colour: 'brown' }],
    [{ id: '1', name: 5 }],
    { id: 7, name: 'Rex', categoryId: 1, status: 'sold', colour: 'brown' },
    { id: 7.5, name: 'Rex', categoryId: 2 ** 64 },
    { name: 'Rex', categoryId: 1, status: 'lost' },
    { code: 'not_found', message: 'no pet', status: 404 },
    { code: 'x', message: 'y', status: '400', extra: true },
    'available',
    'lost',
    null,
    [],
    {},
    42,
    true,
  ];
}

describe('the standalone validators getValidator serves (spec/generated/validators.ts)', () => {
  it('give the same verdict and the same errors as the validators ajv compiles from the YAML, for every schema, open and closed', () => {
    const doc = readSpecYaml();
    const names = Object.keys(doc.components.schemas) as SchemaName[];
    expect(names).toEqual(expect.arrayContaining(['Pet', 'Pets', 'NewPet', 'PetStatus', 'Error']));
    const values = corpus();
    for (const name of names) {
      for (const closed of [false, true]) {
        const [generated, compiled] = [getValidator(name, { closed }), compileValidator(doc, name, closed)];
        const verdicts = values.map((value) => {
          const verdict = compiled(value);
          expect([name, closed, value, generated(value), generated.errors]).toEqual([
            name,
            closed,
            value,
            verdict,
            compiled.errors,
          ]);
          return verdict;
        });
        // Each validator met values it accepts and values it refuses, so both paths were compared.
        expect(new Set(verdicts), `${name} ${closed ? 'closed' : 'open'}`).toEqual(new Set([true, false]));
      }
    }
  });

  it('check an array item by item and stop collecting errors past MAX_SCHEMA_ERRORS (ajv concatenates them: quadratic)', () => {
    const doc = readSpecYaml();
    const many = Array.from({ length: 5_000 }, () => ({}));
    for (const closed of [false, true]) {
      const validate = getValidator('Pets', { closed });
      expect(validate(many)).toBe(compileValidator(doc, 'Pets', closed)(many));
      expect(validate.errors!.length).toBeGreaterThanOrEqual(MAX_SCHEMA_ERRORS);
      expect(validate.errors!.length).toBeLessThan(MAX_SCHEMA_ERRORS + 10);
      expect(validate.errors![0]!.instancePath).toBe('/0');
    }
  });

  it('name an unknown schema, as the compiled ones do, instead of returning nothing', () => {
    for (const closed of [false, true]) {
      expect(() => getValidator('Order' as SchemaName, { closed })).toThrow('spec has no schema named Order');
      expect(() => compileValidator(readSpecYaml(), 'Order', closed)).toThrow('spec has no schema named Order');
    }
  });
});

describe('the formats the generated validators carry (copied from ajv-formats, which is not loaded at run time)', () => {
  it('int64 copied agrees with ajv-formats on any value', () => {
    const copy = new Function(`return ${inlineFormatsSource(['int64'])};`)() as {
      int64: { validate(v: unknown): boolean };
    };
    const original = fullFormats.int64 as { validate(v: unknown): boolean };
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.anything()), (value) => {
        expect(copy.int64.validate(value)).toBe(original.validate(value));
      }),
    );
  });

  it('refuses to copy a format that depends on the rest of ajv-formats, or one it does not have', () => {
    expect(() => inlineFormatsSource(['date-time'])).toThrow('format date-time of ajv-formats does not stand alone');
    expect(() => inlineFormatsSource(['colour'])).toThrow("format colour is not one of ajv-formats' formats");
  });

  it('are in the generated module, which imports nothing from ajv-formats', () => {
    const source = readFileSync(`${ROOT}spec/generated/validators.ts`, 'utf8');
    expect(source).toContain('const inlineFormats = {"int64": ');
    expect(source).not.toMatch(/(import|require)\b[^;]*ajv-formats/);
  });
});
