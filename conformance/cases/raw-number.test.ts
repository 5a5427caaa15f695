import { describe, expect, it } from 'vitest';
import { rawNumber } from './create-pet.ts';

describe('rawNumber', () => {
  it('reads the top-level member as written, not one nested or inside a string before it', () => {
    const echoed =
      '{"id":3,"name":"x \\"categoryId\\": 1, [\\\\\\"]","tags":[[1,2],{"categoryId":7,"x":"]}"}],"categoryId" : 99.99999999999999999,"note":"categoryId"}';
    expect(JSON.parse(echoed).categoryId).toBe(100);
    expect(rawNumber(echoed, 'categoryId')).toBe('99.99999999999999999');
    expect(rawNumber('{"name":"a","categoryId":4503599627370496.5}', 'categoryId')).toBe('4503599627370496.5');
  });

  it('finds nothing when the top-level member is missing or not a number', () => {
    expect(rawNumber('{"tags":[{"categoryId":7}]}', 'categoryId')).toBeUndefined();
    expect(rawNumber('{"categoryId":"7"}', 'categoryId')).toBeUndefined();
    expect(rawNumber('{"name":"unterminated', 'categoryId')).toBeUndefined();
  });
});
