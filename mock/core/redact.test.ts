import { describe, expect, it } from 'vitest';
import { createMock } from './mock.ts';

const KEY = 'sk/live+1';

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
