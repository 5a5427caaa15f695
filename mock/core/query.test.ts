import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query.ts';

// Characters that make query strings interesting: separators, escapes, `+`, and ordinary ones.
const queryChar = fc.constantFrom('&', '=', '%', '+', '2', '0', 'a', 'l', 'i', 'm', 't', ' ', 'é', '?', '#');

describe('parseQuery', () => {
  it('gives the values URLSearchParams gives, for any query and name', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: queryChar, maxLength: 30 }),
        fc.string({ unit: queryChar, maxLength: 4 }),
        (raw, name) => {
          const expected = new URLSearchParams(raw);
          const parsed = parseQuery(raw);
          expect(parsed.getAll(name)).toEqual(expected.getAll(name));
          for (const key of new Set(expected.keys())) expect(parsed.getAll(key)).toEqual(expected.getAll(key));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['limit=20&limit=30', 'limit', ['20', '30']],
    ['limit&status=', 'limit', ['']],
    ['&&limit=5&', 'limit', ['5']],
    ['limit=a=b', 'limit', ['a=b']],
    ['status=sold', 'limit', []],
  ])('%j: getAll(%j) is %j', (raw, name, values) => {
    expect(parseQuery(raw).getAll(name)).toEqual(values);
  });
});
