/**
 * The key check's decision goes through crypto.timingSafeEqual, on inputs of
 * one fixed length, against every configured key: shown by behaviour (a spy
 * on node:crypto), not by timing, which would be flaky on a shared machine.
 */
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../../mock/auth.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const spy = vi.mocked(crypto.timingSafeEqual);
// Back to the real timingSafeEqual (the implementation the spy was made with) and no recorded calls.
afterEach(() => spy.mockReset());

const keys = ['short', 'a-much-longer-key-of-another-length-0123456789', 'third/key+with=signs'];

describe('API key comparison', () => {
  it('compares with timingSafeEqual against every key, even once one matched', () => {
    const authenticate = createAuthenticator(keys);
    for (const key of keys) {
      spy.mockClear();
      expect(authenticate(`Bearer ${key}`)).toBeNull();
      expect(spy).toHaveBeenCalledTimes(keys.length);
    }
    spy.mockClear();
    expect(authenticate('Bearer nope')).toBe('invalid');
    expect(spy).toHaveBeenCalledTimes(keys.length);
  });

  it('compares inputs of one fixed length, so a key length cannot show through', () => {
    const authenticate = createAuthenticator(keys);
    for (const candidate of ['x', 'short', 'y'.repeat(10_000), keys[1]!]) authenticate(`Bearer ${candidate}`);
    const lengths = new Set(
      spy.mock.calls.flatMap(([a, b]) => [(a as Uint8Array).byteLength, (b as Uint8Array).byteLength]),
    );
    expect(lengths.size).toBe(1);
  });

  it('decides by what timingSafeEqual says, with no other comparison that could short-circuit', () => {
    const authenticate = createAuthenticator(keys);
    spy.mockImplementation(() => false);
    expect(authenticate(`Bearer ${keys[0]}`)).toBe('invalid');
    spy.mockImplementation(() => true);
    expect(authenticate('Bearer not-a-key')).toBeNull();
  });

  it('does not compare at all when no bearer token is offered', () => {
    const authenticate = createAuthenticator(keys);
    expect(authenticate(undefined)).toBe('missing');
    expect(authenticate('Basic abc')).toBe('scheme');
    expect(spy).not.toHaveBeenCalled();
  });
});
