import { describe, expect, it } from 'vitest';
import { CUT_DEEPER, createKeyRedactor, keySpellings, MAX_REDACT_DEPTH, REDACTED, redactDeep } from './redact.ts';

const KEY = 'sk/live+1';
const redact = createKeyRedactor([KEY]);

describe('the one key redaction', () => {
  it.each([
    ['raw', `/v1/pets/${KEY}`],
    ['percent-encoded, upper case', '/v1/pets/sk%2Flive%2B1'],
    ['percent-encoded, lower case', '/v1/pets/sk%2flive%2b1'],
    ['percent-encoded, mixed and partial', '/v1/pets/%73k%2flive+1'],
    ['every character escaped', `/v1/pets/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['base64', `token=${btoa(KEY)}`],
    [
      'base64 without padding, URL-safe',
      `token=${btoa(KEY).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')}`,
    ],
    ['JSON-escaped', JSON.stringify({ key: 'a"b\\c' }).slice(0)],
  ])('catches the key %s', (_form, text) => {
    const r = _form === 'JSON-escaped' ? createKeyRedactor(['a"b\\c']) : redact;
    const out = r(text);
    expect(out).toContain(REDACTED);
    expect(out.toLowerCase()).not.toMatch(/live/);
  });

  it('catches a non-ASCII key raw and encoded, and leaves other text as it was', () => {
    const r = createKeyRedactor(['clé-ü']);
    expect(r(`/x/${encodeURIComponent('clé-ü')}/y`)).toBe(`/x/${REDACTED}/y`);
    expect(r(`/x/${encodeURIComponent('clé-ü').toLowerCase()}`)).toBe(`/x/${REDACTED}`);
    expect(r('clé-ü')).toBe(REDACTED);
    expect(redact('/v1/pets/1?limit=2&x=%20')).toBe('/v1/pets/1?limit=2&x=%20');
    expect(createKeyRedactor([''])('anything')).toBe('anything');
  });
});

describe("keySpellings, the one list of a key's spellings", () => {
  it('lists the key raw, JSON-escaped, percent-encoded and in base64, longest first', () => {
    const spellings = keySpellings('a"b/c');
    for (const form of ['a"b/c', 'a\\"b/c', 'a%22b%2Fc', btoa('a"b/c'), btoa('a"b/c').replace(/=+$/, '')])
      expect(spellings).toContain(form);
    expect(spellings).toEqual(spellings.toSorted((x, y) => y.length - x.length));
  });
});

describe('redactDeep', () => {
  it('redacts every string and every key, unless keys are asked to stay', () => {
    const redact = createKeyRedactor(['k3y-secret']);
    const value = { 'k3y-secret': ['k3y-secret', { nested: 'xk3y-secret' }], n: 1, t: true, z: null };
    expect(JSON.stringify(redactDeep(value, redact))).not.toContain('k3y');
    expect(redactDeep(value, redact).n).toBe(1);
    expect(Object.keys(redactDeep(value, redact, { keys: false }))).toContain('k3y-secret');
  });

  it('gives back the value itself when nothing in it changes, and a copy, the value untouched, when something does', () => {
    const redact = createKeyRedactor(['k3y-secret']);
    const clean = JSON.parse('[{"id":1,"name":"x","tags":["a",{"b":null}]}]') as unknown;
    expect(redactDeep(clean, redact)).toBe(clean);
    const dirty = JSON.parse('[{"id":1,"name":"x","tags":["a",{"b":"k3y-secret"}]}]') as [
      { tags: [string, { b: string }] },
    ];
    const copy = redactDeep(dirty, redact);
    expect(copy).not.toBe(dirty);
    expect(dirty[0].tags[1].b).toBe('k3y-secret');
    expect(copy[0].tags[1].b).toBe(REDACTED);
    // A key alone, every string unchanged, is a change too.
    const keyed = { 'k3y-secret': 1 };
    expect(Object.keys(redactDeep(keyed, redact))).toEqual([REDACTED]);
  });
});

describe('a "__proto__" key from a server', () => {
  it('stays an own field of the copy and never becomes its prototype', () => {
    const parsed = JSON.parse('[{"__proto__":{"id":1,"name":"x","categoryId":1}}]') as unknown;
    const [copy] = redactDeep(parsed, createKeyRedactor(['secret'])) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy!)).toEqual(['__proto__']);
    expect(copy!.id).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"id":1,"name":"x","categoryId":1}}');
  });
});

describe('redactDeep on JSON a server nests as deep as it likes', () => {
  it('walks at most MAX_REDACT_DEPTH levels and cuts the rest, without a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const copy = redactDeep(deep, createKeyRedactor(['k-123456789']));
    let level = 0;
    let node: unknown = copy;
    while (Array.isArray(node)) {
      node = node[0];
      level++;
    }
    expect(level).toBe(MAX_REDACT_DEPTH);
    expect(node).toBe(CUT_DEEPER);
  });
});
