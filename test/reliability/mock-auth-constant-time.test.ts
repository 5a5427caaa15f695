/**
 * The key check's decision reads every code unit of the offered token, against
 * every configured key, whatever matched: shown by behaviour (counting the reads),
 * not by timing, which would be flaky on a shared machine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AuthFailure, constantTimeEqual, createAuthenticator, keyCodes } from '../../mock/core/auth.ts';

/** A string whose charCodeAt reads are counted. */
function counted(text: string): { value: string; reads: () => number } {
  let reads = 0;
  const value = Object.assign(new String(text), {
    charCodeAt(index: number) {
      reads++;
      return String.prototype.charCodeAt.call(text, index);
    },
  });
  return { value: value as unknown as string, reads: () => reads };
}

const keys = ['short', 'a-much-longer-key-of-another-length-0123456789', 'third/key+with=signs'];

describe('API key comparison', () => {
  it('decides equality exactly, prefixes, extensions and other lengths included', () => {
    for (const key of keys) {
      expect(constantTimeEqual(key, key)).toBe(true);
      for (const other of [key.slice(0, -1), `${key}x`, `x${key.slice(1)}`, '', key.repeat(2)]) {
        expect(constantTimeEqual(other, key)).toBe(false);
      }
    }
  });

  it('reads every code unit of the candidate, whether it differs at the first character or not at all', () => {
    const key = keys[1]!;
    for (const candidate of [key, `X${key.slice(1)}`, `${key.slice(0, -1)}X`, 'y'.repeat(key.length)]) {
      const probe = counted(candidate);
      constantTimeEqual(probe.value, key);
      expect(probe.reads()).toBe(candidate.length);
    }
  });

  it('reads as many code units of a wrong key as of a right one, so the key length does not show', () => {
    for (const candidate of ['x', 'short', 'y'.repeat(10_000), keys[1]!]) {
      const reads = keys.map((key) => {
        const made = keyCodes(key);
        let read = 0;
        const codes = new Proxy(made.codes, {
          get(target, name) {
            if (typeof name === 'string' && /^\d+$/.test(name)) read++;
            return Reflect.get(target, name);
          },
        });
        constantTimeEqual(candidate, { ...made, codes });
        return read;
      });
      expect(new Set(reads)).toEqual(new Set([candidate.length]));
    }
  });

  it('reads every code unit of the token once per configured key, right key or wrong, whichever key it is', () => {
    const authenticate = createAuthenticator(keys);
    for (const token of [...keys, 'nope', `${keys[1]!.slice(0, -1)}X`, 'y'.repeat(300)]) {
      const probe = counted(`Bearer ${token}`);
      authenticate(probe.value);
      // The one compare that accepts: every key's `Bearer <key>` against the header, after its prefix (a refused
      // header is then read by the pattern, from the header's text, not code unit by code unit).
      expect(probe.reads(), token).toBe(keys.length * token.length);
    }
  });

  it('refuses the key cut short at any length, and the key alone without a scheme', () => {
    const authenticate = createAuthenticator(keys);
    for (const key of keys) {
      for (let cut = 0; cut < key.length; cut++) expect(authenticate(`Bearer ${key.slice(0, cut)}`)).not.toBeNull();
      expect(authenticate(key)).toBe('scheme');
      expect(authenticate(`Bearer${key}`)).toBe('scheme');
    }
    expect(authenticate('')).toBe('missing');
  });

  it('accepts each configured key and nothing else, with the Bearer scheme in any case', () => {
    const authenticate = createAuthenticator(keys);
    for (const key of keys) {
      expect(authenticate(`Bearer ${key}`)).toBeNull();
      expect(authenticate(`bearer ${key}`)).toBeNull();
    }
    expect(authenticate('Bearer nope')).toBe('invalid');
    expect(authenticate(`Bearer ${keys[0]}x`)).toBe('invalid');
  });

  it('does not compare at all when no bearer token is offered', () => {
    const authenticate = createAuthenticator(keys);
    expect(authenticate(undefined)).toBe('missing');
    expect(authenticate('Basic abc')).toBe('scheme');
  });

  it('decides every header as RFC 6750 reads it: the fast path for `Bearer <token>` agrees with the pattern on any input', () => {
    // The rule as written before the fast path: scheme in any case, one or more spaces, the token trimmed.
    const reference = (header: string | undefined): AuthFailure => {
      if (header === undefined || header.trim() === '') return 'missing';
      const match = /^bearer +(\S.*)$/i.exec(header);
      if (!match) return 'scheme';
      return keys.includes(match[1]!.trim()) ? null : 'invalid';
    };
    const authenticate = createAuthenticator(keys);
    const piece = fc.oneof(
      fc.constantFrom(
        'Bearer ',
        'bearer ',
        'Bearer  ',
        'BEARER\t',
        'Bearer',
        ' ',
        '\t',
        '\n',
        '\u2028',
        '\u00a0',
        'é',
        ...keys,
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 5 }), (pieces) => {
        const header = pieces.join('');
        expect(authenticate(header)).toBe(reference(header));
      }),
      { numRuns: 5_000 },
    );
    for (const key of keys) {
      for (const header of [`Bearer ${key}`, `Bearer ${key} `, `Bearer  ${key}`, `Bearer ${key}\n`, ` Bearer ${key}`])
        expect(authenticate(header), JSON.stringify(header)).toBe(reference(header));
    }
  });
});
