import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getValidator, listPetsLimit, petStatuses } from '../../spec/index.ts';
import { generatedProperties } from './catalog.ts';
import { limitArb, listQueryArb, petRefArb, validLimit } from './params.ts';
import { INT64, schemaProperties, toJsonText } from './schema.ts';
import {
  describeInvalid,
  invalidBodyArb,
  invalidBodyText,
  isInvalidNewPet,
  newPetArb,
  outsideInt64,
} from './values.ts';

const SAMPLES = { seed: 1, numRuns: 2000 };

describe('what the generator reads from the spec', () => {
  it('the NewPet properties, their types, format, enumeration and which are required', () => {
    expect(schemaProperties()).toEqual([
      { name: 'name', type: 'string', required: true },
      { name: 'categoryId', type: 'integer', required: true, format: 'int64' },
      { name: 'status', type: 'string', required: false, enum: petStatuses() },
    ]);
  });

  it('writes BigInts as their exact digits', () => {
    expect(toJsonText({ a: 2n ** 53n + 1n, b: ['x', null, -(2n ** 63n)] })).toBe(
      '{"a":9007199254740993,"b":["x",null,-9223372036854775808]}',
    );
  });
});

describe('valid NewPets', () => {
  const pets = fc.sample(newPetArb(), SAMPLES);
  const names = pets.map((p) => p.name as string);
  const categories = pets.map((p) => p.categoryId as bigint);

  it('are all valid for the spec validator', () => {
    const invalid = pets.map((p) => toJsonText(p)).filter((text) => !getValidator('NewPet')(JSON.parse(text)));
    expect(invalid).toEqual([]);
  });

  it('span the name domain: empty, longer than 64, slash, quotes, backslash, markup, emoji, controls', () => {
    expect(names).toContain('');
    expect(names.some((n) => [...n].length > 64)).toBe(true);
    for (const c of ['/', '"', "'", '\\', '<', '>', '🐶', '\u0000', '\n'])
      expect(
        names.some((n) => n.includes(c)),
        JSON.stringify(c),
      ).toBe(true);
  });

  it('span int64: zero, negatives, the 2^53 edge and the int64 limits', () => {
    for (const v of [0n, 2n ** 53n, 2n ** 53n + 1n, INT64.max, INT64.min]) expect(categories, String(v)).toContain(v);
    expect(categories.some((c) => c < 0n && c > -1000n)).toBe(true);
    expect(categories.every((c) => c >= INT64.min && c <= INT64.max)).toBe(true);
  });

  it('carry each status, and none', () => {
    for (const s of petStatuses()) expect(pets.some((p) => p.status === s)).toBe(true);
    expect(pets.some((p) => !('status' in p))).toBe(true);
  });
});

describe('invalid bodies', () => {
  const bodies = fc.sample(invalidBodyArb(), SAMPLES);

  it('are each refused by the spec validator, not JSON at all, or an integer beyond int64', () => {
    expect(bodies.filter((b) => !isInvalidNewPet(invalidBodyText(b)) && !outsideInt64(b))).toEqual([]);
    expect(bodies.filter((b) => outsideInt64(b)).every((b) => b.kind === 'range.categoryId')).toBe(true);
  });

  it('break the schema every way: not an object, malformed, each required field missing, each wrong type, the enum, int64', () => {
    const kinds = new Set(bodies.map((b) => b.kind));
    expect([...kinds].sort()).toEqual(
      [
        'notObject',
        'malformed',
        'missing.name',
        'missing.categoryId',
        'type.name',
        'type.categoryId',
        'type.status',
        'enum.status',
        'range.categoryId',
        'notUtf8.name',
      ].sort(),
    );
    expect(
      bodies.some((b) => b.kind === 'enum.status' && /^[A-Z]+$/.test(String((b.value as { status: string }).status))),
    ).toBe(true);
  });
});

describe('parameters', () => {
  const { minimum: min, maximum: max } = listPetsLimit();

  it('limit spans the bounds, just beyond them, far beyond, and values that are not integers', () => {
    const limits = fc.sample(limitArb(), SAMPLES);
    for (const v of [min, max, min - 1, max + 1].map(String)) expect(limits).toContain(v);
    expect(limits).toContain('abc');
    expect(limits.some((l) => l.length > 19)).toBe(true);
  });

  it('only a canonical integer within the bounds is a valid limit', () => {
    expect([String(min), String(max), '37'].map((v) => validLimit(v))).toEqual([min, max, 37]);
    for (const v of [undefined, String(min - 1), String(max + 1), '05', '+5', ' 5', '1.5', ''])
      expect(validLimit(v)).toBeUndefined();
  });

  it('queries combine every status, unknown ones, and absent parameters', () => {
    const queries = fc.sample(listQueryArb(), SAMPLES);
    for (const s of petStatuses()) expect(queries.some((q) => q.status === s && q.limit !== undefined)).toBe(true);
    expect(queries.some((q) => q.status !== undefined && !petStatuses().includes(q.status as never))).toBe(true);
    expect(queries.some((q) => q.limit === undefined && q.status === undefined)).toBe(true);
  });

  it('petIds: created and listed animals, negative ids, and malformed segments', () => {
    const refs = fc.sample(petRefArb(), SAMPLES);
    expect(new Set(refs.map((r) => r.kind))).toEqual(new Set(['created', 'existing', 'aliased', 'raw']));
    expect(refs.some((r) => r.kind === 'raw' && r.id.startsWith('-'))).toBe(true);
    expect(refs.some((r) => r.kind === 'raw' && r.id === 'abc')).toBe(true);
  });
});

describe('seeding', () => {
  it('the same seed draws the same values; another seed, others', () => {
    const draw = (seed: number) =>
      fc.sample(fc.tuple(newPetArb(), invalidBodyArb(), listQueryArb()), { seed, numRuns: 50 });
    const text = (seed: number) => JSON.stringify(draw(seed), (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    expect(text(7)).toBe(text(7));
    expect(text(7)).not.toBe(text(8));
  });
});

describe('the generated checks', () => {
  it('have unique ids generated.<operation>.<check>, each of an operation of the spec', () => {
    const ids = generatedProperties().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of generatedProperties()) expect(c.id.startsWith(`generated.${c.operationId}.`)).toBe(true);
    expect(
      generatedProperties()
        .filter((c) => c.level !== 'required')
        .map((c) => `${c.id} ${c.level}`),
    ).toEqual(['generated.createPet.validRefused info']);
  });
});

describe('describeInvalid', () => {
  it('says what is wrong in words, with no internal ids: beyond int64, a missing field, a wrong type', () => {
    expect(describeInvalid({ kind: 'range.categoryId', value: { name: 'a', categoryId: 9223372036854779904n } })).toBe(
      "categoryId 9223372036854779904, beyond int64's largest value (9223372036854775807)",
    );
    expect(describeInvalid({ kind: 'range.categoryId', value: { name: 'a', categoryId: -9223372036854775809n } })).toBe(
      "categoryId -9223372036854775809, beyond int64's smallest value (-9223372036854775808)",
    );
    expect(describeInvalid({ kind: 'missing.name', value: { categoryId: 1n } })).toBe('a body without name');
    expect(describeInvalid({ kind: 'type.categoryId', value: { name: 'a', categoryId: '1' } })).toBe(
      'categoryId "1", not of the type the contract gives it',
    );
  });
});
