import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep } from '../../guard/redact.ts';
import { createRedactor, createTextRedactor } from './redact.ts';

describe('createRedactor', () => {
  const key = 'k3y"with/odd+chars';
  const redact = createRedactor([key]);

  it('replaces the raw, JSON-escaped, URL-encoded and base64 forms of the key', () => {
    const forms = [
      key,
      JSON.stringify(key).slice(1, -1),
      encodeURIComponent(key),
      Buffer.from(key).toString('base64'),
      Buffer.from(`conformance:${key}`).toString('base64'),
    ];
    for (const form of forms) expect(redact(`a ${form} b ${form}`)).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  it('leaves text without the key alone, and ignores empty secrets', () => {
    expect(redact('nothing here')).toBe('nothing here');
    expect(createRedactor([''])('abc')).toBe('abc');
  });

  it('redacts deeply, keys of objects included', () => {
    const value = { [key]: [key, { nested: `x${key}` }], n: 1, t: true, z: null };
    expect(JSON.stringify(redactDeep(value, redact))).not.toContain('k3y');
    expect(redactDeep(value, redact).n).toBe(1);
  });
});

describe('percent-escapes in either case', () => {
  it('hides the key URL-encoded with lower-case or mixed-case hex', () => {
    const redact = createRedactor(['a/b:c']);
    expect(redact('x=a%2Fb%3Ac y=a%2fb%3ac z=a%2Fb%3ac')).toBe('x=[REDACTED] y=[REDACTED] z=[REDACTED]');
  });

  it('treats regular-expression characters in the key literally', () => {
    const redact = createRedactor(['k.y+(1)']);
    expect(redact('k.y+(1) kxy+(1)')).toBe('[REDACTED] kxy+(1)');
  });
});

describe('the redactor for mixed text (the suite words and server values in one line)', () => {
  it('removes a short key only where it stands alone, so the suite words stay whole', () => {
    const text = createTextRedactor(['t']);
    expect(text('expected application/json, got "text/plain"')).toBe('expected application/json, got "text/plain"');
    expect(text('status: expected 200, got 401; echo "t" and Bearer t.')).toBe(
      `status: expected 200, got 401; echo "${REDACTED}" and Bearer ${REDACTED}.`,
    );
    const sold = createTextRedactor(['sold']);
    expect(sold('id 3 has status "sold"; 2 of 10 items are unsold')).toBe(
      `id 3 has status "${REDACTED}"; 2 of 10 items are unsold`,
    );
  });

  it('removes a long key wherever it occurs, glued to other text included', () => {
    const key = 'sk_live_0123456789';
    expect(createTextRedactor([key])(`x${key}y ${encodeURIComponent(key)}`)).toBe(`x${REDACTED}y ${REDACTED}`);
  });

  it('leaves text alone for an empty key', () => {
    expect(createTextRedactor([''])('a t b')).toBe('a t b');
  });
});
