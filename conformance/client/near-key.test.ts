import { describe, expect, it } from 'vitest';
import { NEAR_KEYS, nearKey, nearKeys } from './near-key.ts';

describe('near keys', () => {
  it('each is one edit from the key and differs from it', () => {
    const key = 'Mutation-Key-42';
    expect(nearKey(key, 'lastChanged')).toBe('Mutation-Key-40');
    expect(nearKey(key, 'lastMissing')).toBe('Mutation-Key-4');
    expect(nearKey(key, 'oneMore')).toBe('Mutation-Key-420');
    expect(nearKey(key, 'otherCase')).toBe('mUTATION-kEY-42');
    for (const kind of NEAR_KEYS) expect(nearKey(key, kind)).not.toBe(key);
  });

  it('a key ending in 0 gets another last character, never the same one', () => {
    expect(nearKey('abc0', 'lastChanged')).toBe('abc1');
  });

  it('says when a key has none of a kind: no letter to change the case of, one character to leave out', () => {
    expect(nearKey('12345', 'otherCase')).toBeUndefined();
    expect(nearKey('k', 'lastMissing')).toBeUndefined();
    // One character changed is another key, not a near one; as a secret `0` would hide every standalone 0.
    expect(nearKey('t', 'lastChanged')).toBeUndefined();
    expect(nearKeys('t')).toEqual(['t0', 'T']);
    expect(nearKeys('12345')).toEqual(['12340', '1234', '123450']);
  });
});
