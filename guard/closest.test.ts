import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from './closest.ts';

describe('closestName', () => {
  it('counts case-blind edits, a swap of neighbours as one', () => {
    expect(editDistance('apikeys', 'apiKeys')).toBe(0);
    expect(editDistance('cout', 'count')).toBe(1);
    expect(editDistance('seeed', 'seed')).toBe(1);
    expect(editDistance('conut', 'count')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('names the nearest known name, or none when nothing is near', () => {
    const known = ['apiKeys', 'count', 'seed', 'corsOrigins', 'cors'];
    expect(closestName('apikeys', known)).toBe('apiKeys');
    expect(closestName('cout', known)).toBe('count');
    expect(closestName('corsOrigin', known)).toBe('corsOrigins');
    expect(closestName('banana', known)).toBeUndefined();
    expect(closestName('getpet.unknown', ['getPet.unknown', 'getPet.existing'])).toBe('getPet.unknown');
    expect(didYouMean('apikeys', known)).toBe('; did you mean apiKeys?');
    expect(didYouMean('zzz', known)).toBe('');
  });
});
