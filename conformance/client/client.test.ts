import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './client.ts';

const BASE = 'http://petstore.test/v1';
const KEY = 'secret-key-xyz';
let agent: MockAgent;

function mock(): ReturnType<MockAgent['get']> {
  agent = new MockAgent();
  agent.disableNetConnect();
  return agent.get('http://petstore.test');
}

afterEach(async () => {
  await agent?.close();
});

describe('client', () => {
  it('sends the key as a bearer token, never records it, and keeps what the server sent whole for the checks', async () => {
    let seen: unknown;
    mock()
      .intercept({ path: '/v1/pets', method: 'GET' })
      .reply(
        200,
        (opts) => {
          seen = (opts.headers as Record<string, string>).authorization;
          return JSON.stringify([{ echo: KEY }]);
        },
        { headers: { 'content-type': 'application/json', 'x-echo': `Bearer ${KEY}` } },
      );
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(seen).toBe(`Bearer ${KEY}`);
    expect(ex.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(JSON.stringify(ex.request)).not.toContain(KEY);
    // Hiding the key is the report's job (redact-report.ts): the checks read the answer as it came.
    expect(ex.response?.headers['x-echo']).toBe(`Bearer ${KEY}`);
    expect(ex.response?.json).toEqual([{ echo: KEY }]);
  });

  it('does not follow redirects', async () => {
    mock()
      .intercept({ path: '/v1/pets', method: 'GET' })
      .reply(302, '', { headers: { location: 'http://elsewhere.test/' } });
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.response?.status).toBe(302);
  });

  it('stops reading a body over the cap and says why', async () => {
    mock().intercept({ path: '/v1/pets', method: 'GET' }).reply(200, 'x'.repeat(5000));
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent, maxBodyBytes: 1000 });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.error?.code).toBe('PETSTORE_BODY_TOO_LARGE');
    expect(ex.response?.body.length).toBe(1000);
  });

  it('times out a slow response', async () => {
    mock().intercept({ path: '/v1/pets', method: 'GET' }).reply(200, '[]').delay(2000);
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent, timeoutMs: 100 });
    const started = Date.now();
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.error?.code).toBe('PETSTORE_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports transport errors as data', async () => {
    mock()
      .intercept({ path: '/v1/pets', method: 'GET' })
      .replyWithError(Object.assign(new Error(`reset near ${KEY}`), { code: 'ECONNRESET' }));
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.error?.code).toBe('ECONNRESET');
    expect(ex.error?.message).toContain('reset near');
    expect(client.stats).toMatchObject({ transportFailed: 1, firstTransportError: { code: 'ECONNRESET' } });
  });

  it('waits out a 429 with Retry-After and retries, counting it apart', async () => {
    const pool = mock();
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(429, '', { headers: { 'retry-after': '0' } });
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(503, '', { headers: { 'retry-after': '0' } });
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(200, '[]');
    const told: [number | undefined, boolean, number][] = [];
    const client = createClient({
      baseUrl: BASE,
      apiKey: KEY,
      dispatcher: agent,
      onExchange: (e, startedAt, retried) => void told.push([e.response?.status, retried, startedAt]),
    });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.response?.status).toBe(200);
    expect(ex.error).toBeUndefined();
    expect(ex.retries?.count).toBe(2);
    expect(client.throttleStats).toMatchObject({ byStatus: { 429: 1, 503: 1 }, retried: 2, exhausted: 0 });
    // Every exchange on the wire is told, in order, the retried ones marked so.
    expect(told.map(([status, retried]) => [status, retried])).toEqual([
      [429, true],
      [503, true],
      [200, false],
    ]);
    expect(told.map(([, , t]) => t)).toEqual(told.map(([, , t]) => t).toSorted((a, b) => a - b));
  });

  it('keeps a 503 without Retry-After as the answer (a server error, not a request to wait)', async () => {
    mock().intercept({ path: '/v1/pets', method: 'GET' }).reply(503, '');
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent });
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(ex.response?.status).toBe(503);
    expect(ex.error).toBeUndefined();
    expect(client.throttleStats.retried).toBe(0);
  });

  it('fails the exchange with the reason once the wait budget is spent', async () => {
    mock()
      .intercept({ path: '/v1/pets', method: 'GET' })
      .reply(429, '', { headers: { 'retry-after': '30' } });
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent, throttle: { maxWaitMs: 5000 } });
    const started = Date.now();
    const ex = await client.send({ method: 'GET', path: '/pets' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ex.response?.status).toBe(429);
    expect(ex.error?.code).toBe('PETSTORE_RATE_LIMITED');
    expect(ex.error?.message).toMatch(/Retry-After: 30.*--max-wait 5 s/);
    expect(client.throttleStats).toMatchObject({ exhausted: 1, retried: 0 });
  });

  it('counts created animals and key rejections', async () => {
    const pool = mock();
    pool.intercept({ path: '/v1/pets', method: 'POST' }).reply(201, { id: 7, name: 'a', categoryId: 1 });
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(401, { code: 'u', message: 'm', status: 401 });
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(401, { code: 'u', message: 'm', status: 401 });
    const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent });
    await client.send({ method: 'POST', path: '/pets', body: '{}' });
    await client.send({ method: 'GET', path: '/pets' });
    await client.send({ method: 'GET', path: '/pets', auth: 'none' });
    expect(client.stats).toMatchObject({ created: 1, createdIds: [7], keyRequests: 2, keyRejected: 1 });
  });

  it('cuts every request in flight when the run ends, with one listener on its signal however many there are', async () => {
    const pool = mock();
    pool.intercept({ path: '/v1/pets', method: 'GET' }).reply(200, '[]').delay(5000).times(20);
    const end = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client = createClient({ baseUrl: BASE, apiKey: KEY, dispatcher: agent, endSignal: end.signal });
      const sent = Array.from({ length: 20 }, () => client.send({ method: 'GET', path: '/pets' }));
      setTimeout(() => end.abort(new Error('the run reached its time limit')), 50);
      const exchanges = await Promise.all(sent);
      expect(exchanges.map((ex) => ex.error?.code)).toEqual(Array(20).fill('PETSTORE_RUN_ENDED'));
      expect(exchanges[0]!.error?.message).toBe('the run reached its time limit');
      // EventTarget warns past ten listeners on one signal ("Possible EventTarget memory leak"): on stderr, under the CLI.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
