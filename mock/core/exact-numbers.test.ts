import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describePath, findInexactInteger, isExactSafeInteger } from './exact-numbers.ts';

describe('exact integers in JSON text', () => {
  it.each([
    ['1', true],
    ['-0', true],
    ['0.000', true],
    ['1.0', true],
    ['1e2', true],
    ['1500e-3', false],
    ['15000e-3', true],
    ['9007199254740991', true],
    ['-9007199254740991', true],
    ['9007199254740992', false],
    ['90071992547409910e-1', true],
    ['1e-400', false],
    ['1.0000000000000001', false],
    ['4503599627370496.5', false],
    ['1e16', false],
    ['1e99999999999999999999', false],
    ['0e99999999999999999999', true],
  ])('%s is exactly a safe integer: %s', (text, exact) => {
    expect(isExactSafeInteger(text)).toBe(exact);
  });

  it('agrees with Number for every safe integer written plainly, and for fractions', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(isExactSafeInteger(String(n))).toBe(true);
        expect(isExactSafeInteger(`${n}.5`)).toBe(false);
      }),
    );
  });

  it('finds the first inexact number at a wanted path, and its path', () => {
    const categoryId = (path: readonly (string | number)[]) => path.length === 1 && path[0] === 'categoryId';
    expect(findInexactInteger('{"name":"Rex","categoryId":3}', 1, categoryId)).toBeUndefined();
    expect(findInexactInteger('{"name":"1.5e3","pad":2.5,"categoryId":1e-400}', 1, categoryId)).toEqual({
      path: ['categoryId'],
      text: '1e-400',
    });
    expect(findInexactInteger('{"x":{"categoryId":1.5},"categoryId":2}', 1, categoryId)).toBeUndefined();
    // A key given twice: JSON.parse keeps the last, and so does the check.
    expect(findInexactInteger('{"categoryId":1e-400,"categoryId":2}', 1, categoryId)).toBeUndefined();
    expect(findInexactInteger('{"categoryId":2,"categoryId":1.5}', 1, categoryId)?.text).toBe('1.5');
    const pets = (path: readonly (string | number)[]) =>
      path.length === 2 && (path[1] === 'id' || path[1] === 'categoryId');
    const found = findInexactInteger(
      '[{"id":1,"name":"a,b]","categoryId":1},{"id":2,"tags":[1.5,{"id":2.5}],"categoryId":4503599627370496.5}]',
      2,
      pets,
    );
    expect(found).toEqual({ path: [1, 'categoryId'], text: '4503599627370496.5' });
    expect(describePath('pets', found!.path)).toBe('pets[1].categoryId');
    // Deep nesting full of fractions is one pass: only numbers at the wanted depth get a path.
    const deep = `{"name":"a","categoryId":1,"x":${'['.repeat(50_000)}${'1.5,'.repeat(50_000)}1.5${']'.repeat(50_000)}}`;
    expect(findInexactInteger(deep, 1, categoryId)).toBeUndefined();
  });
});
