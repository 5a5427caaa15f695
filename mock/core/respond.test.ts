import { describe, expect, it } from 'vitest';
import { JOURNAL_BODY_LIMIT } from './journal.ts';
import { AUTH, KEY, setupMock } from './test-support.ts';

// What the node adapter relies on: a promise only when something makes the mock wait.
describe('Mock.fetch answers in the same turn unless it has to wait', () => {
  it('with no delay: the response itself, for API, control and error requests, with every layer on', () => {
    const { mock } = setupMock({ rateLimit: 1_000, chaos: 0.000_001 });
    for (const [method, url] of [
      ['GET', '/v1/pets?limit=2'],
      ['GET', '/v1/pets/1'],
      ['GET', '/v1/pets/999'],
      ['OPTIONS', '/v1/pets'],
      ['GET', '/__control/health'],
      ['GET', '/nowhere'],
    ] as const) {
      const answer = mock.fetch({ method, url, headers: AUTH });
      expect(answer, `${method} ${url}`).not.toBeInstanceOf(Promise);
    }
    expect(mock.requests()).toHaveLength(4);
  });

  it('with a delay (latency, a scenario or Prefer): a promise, and the journal records it once it is answered', async () => {
    const { mock } = setupMock({ latency: 5 });
    const delayed = mock.fetch({ method: 'GET', url: '/v1/pets/1', headers: AUTH });
    expect(delayed).toBeInstanceOf(Promise);
    expect(mock.requests()).toHaveLength(0);
    expect((await delayed).status).toBe(200);
    expect(mock.requests()).toMatchObject([{ path: '/v1/pets/1', status: 200 }]);

    const { mock: plain } = setupMock();
    plain.scenarios.add({ path: '/v1/pets', delayMs: 5 });
    expect(plain.fetch({ method: 'GET', url: '/v1/pets', headers: AUTH })).toBeInstanceOf(Promise);
    const preferred = plain.fetch({ method: 'GET', url: '/v1/pets/1', headers: { ...AUTH, prefer: 'delay=5' } });
    expect(preferred).toBeInstanceOf(Promise);
    expect((await preferred).headers['preference-applied']).toBe('delay=5');
  });

  it('the journal redacts what it kept raw when it is read', () => {
    const { mock } = setupMock();
    mock.fetch({
      method: 'POST',
      url: `/v1/pets?k=${KEY}`,
      headers: { ...AUTH, 'x-echo': KEY },
      body: `{"name":"${KEY}"}`,
    });
    const [entry] = mock.requests();
    expect(JSON.stringify(entry)).not.toContain(KEY);
    expect(entry).toMatchObject({
      query: { k: '[REDACTED]' },
      headers: { 'x-echo': '[REDACTED]' },
      body: '{"name":"[REDACTED]"}',
    });
  });

  it('a kept body that redaction makes longer is still read back at most JOURNAL_BODY_LIMIT characters, marked cut', () => {
    const { mock } = setupMock({ apiKeys: ['ab'] });
    const body = 'ab'.repeat(JOURNAL_BODY_LIMIT / 2);
    mock.fetch({ method: 'POST', url: '/v1/pets', headers: { authorization: 'Bearer ab' }, body });
    const [entry] = mock.requests();
    expect(entry!.body).toHaveLength(JOURNAL_BODY_LIMIT);
    expect(entry!.body).not.toContain('ab');
    expect(entry!.bodyTruncated).toBe(true);
  });
});
