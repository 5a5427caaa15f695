import { describe, expect, it } from 'vitest';
import { createMock } from './mock.ts';
import { createKeyRedactor, REDACTED } from './redact.ts';

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

describe('the journal', () => {
  it('redacts the key in every form it arrives in: path, query, headers, body', async () => {
    const mock = createMock({ apiKeys: [KEY], count: 1 });
    const auth = { authorization: `Bearer ${KEY}` };
    for (const url of [
      '/v1/pets/sk%2flive%2b1',
      '/v1/pets/sk%2Flive%2B1',
      '/v1/pets?q=sk%2flive%2b1',
      '/v1/pets?q=sk/live+1',
    ])
      await mock.fetch({ method: 'GET', url, headers: { ...auth, 'x-echo': btoa(KEY) } });
    await mock.fetch({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ name: KEY, categoryId: 1 })),
    });
    const seen = JSON.stringify(mock.requests());
    expect(seen).not.toMatch(/live/i);
    expect(seen).not.toContain(btoa(KEY));
    const journal = await mock.fetch({ method: 'GET', url: '/__control/requests', headers: {} });
    expect(journal.body).not.toMatch(/live/i);
  });
});
