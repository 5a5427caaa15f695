import { afterEach, describe, expect, it, vi } from 'vitest';
import { listOperations, loadProfile } from '../../spec/index.ts';
import { PetstoreMockError } from './errors.ts';
import { SCENARIO_STATUSES } from './forced.ts';
import { createMock } from './mock.ts';
import { parseLatency } from './options.ts';
import { seedPets } from './seed.ts';
import { AUTH, CONTROL_JSON, expectError, JSON_HEADERS, json, KEY, setupMock } from './test-support.ts';

afterEach(() => void vi.useRealTimers());

describe('CORS layer', () => {
  it('answers a preflight without a key, naming Authorization, Content-Type and Prefer, then what it asked for', async () => {
    const { call } = setupMock();
    const response = await call('OPTIONS', '/v1/pets', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-request-id, authorization, prefer, bad header',
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Prefer, Petstore-Session, x-request-id',
    );
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
  });

  it('never delays or fails a preflight: scenarios, chaos and the rate limit leave OPTIONS alone', async () => {
    const { call, mock } = setupMock({ chaos: 1, rateLimit: 1, now: () => 5_000 });
    mock.scenarios.add({ path: '/v1/pets', status: 503 });
    const preflight = { origin: 'http://app', 'access-control-request-method': 'GET' };
    for (let i = 0; i < 3; i++) expect((await call('OPTIONS', '/v1/pets', preflight)).status).toBe(204);
    expect((await call('GET', '/v1/pets')).status).toBe(503);
  });

  it('exposes exactly the headers of EXPOSED_HEADERS an answer carries; none when it carries none, no CORS when off', async () => {
    const { call } = setupMock({ rateLimit: 1_000 });
    const exposedOf = (headers: Record<string, string>) => headers['access-control-expose-headers']?.split(', ');
    const forced = await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=429' });
    expect(forced.headers['access-control-allow-origin']).toBe('*');
    expect(forced.headers['retry-after']).toBeDefined();
    expect(exposedOf(forced.headers)).toEqual(['Retry-After', 'Preference-Applied', 'RateLimit-Policy', 'RateLimit']);
    const created = await call('POST', '/v1/pets', { ...AUTH, ...JSON_HEADERS }, '{"name":"New","categoryId":1}');
    expect(exposedOf(created.headers)).toEqual(['Location', 'RateLimit-Policy', 'RateLimit']);
    const got = await call('GET', '/v1/pets/1', AUTH);
    expect(exposedOf(got.headers)).toEqual(['Deprecation', 'Sunset', 'Link', 'RateLimit-Policy', 'RateLimit']);
    expect(exposedOf((await call('GET', '/v1/pets', {})).headers)).toContain('WWW-Authenticate');
    expect(exposedOf((await call('GET', '/__control/requests?limit=1', {})).headers)).toEqual([
      'Link',
      'Journal-Dropped',
    ]);
    const plain = setupMock();
    const listed = await plain.call('GET', '/v1/pets', AUTH);
    expect(listed.headers['access-control-allow-origin']).toBe('*');
    expect(listed.headers).not.toHaveProperty('access-control-expose-headers');
    const off = setupMock({ cors: false });
    expect((await off.call('GET', '/v1/pets', {})).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('control endpoints: state', () => {
  it('GET /__control/pets is the whole state; POST /__control/reset goes back to the seed and clears scenarios and journal', async () => {
    const { call, mock } = setupMock({ count: 2 });
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"New","categoryId":1}');
    mock.scenarios.add({ path: '/v1/pets', status: 503 });
    expect(json(await call('GET', '/__control/pets', {}))).toHaveLength(3);
    expect(mock.requests()).toHaveLength(1);
    expect(json(await call('POST', '/__control/reset', {}))).toEqual({ reset: true, pets: 2 });
    expect(json(await call('GET', '/__control/pets', {}))).toEqual(seedPets({ seed: 1, count: 2 }));
    expect([mock.scenarios.list(), mock.requests()]).toEqual([[], []]);
    expect(json(await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"New","categoryId":1}')).id).toBe(3);
  });

  it('PUT /__control/pets replaces the state; the next id follows the largest; reset returns to the seed', async () => {
    const { call, mock } = setupMock();
    const pets = [
      { id: 40, name: 'B', categoryId: 2, status: 'sold' },
      { id: 7, name: 'A', categoryId: 1, extra: 'dropped' },
    ];
    expect(json(await call('PUT', '/__control/pets', CONTROL_JSON, JSON.stringify(pets)))).toEqual({
      replaced: true,
      pets: 2,
    });
    expect(await mock.pets.all()).toEqual([
      { id: 7, name: 'A', categoryId: 1 },
      { id: 40, name: 'B', categoryId: 2, status: 'sold' },
    ]);
    expect(json(await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"C","categoryId":3}')).id).toBe(41);
    mock.reset();
    expect(mock.pets.size).toBe(3);
  });

  it.each([
    ['{}', 'the body must be a JSON array of Pets'],
    ['[{"id":1,"name":"A","categoryId":1},{"id":2,"categoryId":1}]', 'pets[1].name is required'],
    ['[{"id":1,"name":"A","categoryId":"x"}]', 'pets[0].categoryId must be integer'],
    [
      '[{"id":1,"name":"A","categoryId":1,"status":"lost"}]',
      'pets[0].status must be equal to one of the allowed values',
    ],
    ['[{"id":0,"name":"A","categoryId":1}]', 'pets[0].id must be an integer from 1'],
    ['[{"id":1,"name":"A","categoryId":9007199254740993}]', 'pets[0].categoryId must be kept exactly'],
    ['[{"id":1,"name":"A","categoryId":1},{"id":1,"name":"B","categoryId":1}]', 'pets[1].id 1 is used twice'],
  ])('refuses %s with a 400 naming the index and field, and keeps the state', async (body, message) => {
    const { call, mock } = setupMock();
    const before = await mock.pets.all();
    expect(expectError(await call('PUT', '/__control/pets', CONTROL_JSON, body), 400, 'invalid_body')).toContain(
      message,
    );
    expect(await mock.pets.all()).toEqual(before);
    expectError(await call('PUT', '/__control/pets', CONTROL_JSON, '[{'), 400, 'malformed_json');
  });

  it('in process: replacePets throws a PetstoreMockError with a stable code', () => {
    const { mock } = setupMock();
    expect(() => mock.replacePets([{ id: 1, name: 'A' } as never])).toThrow(
      expect.objectContaining({ code: 'PETSTORE_MOCK_INVALID_PETS', message: 'pets[0].categoryId is required' }),
    );
  });

  it('createMock checks the pets it is given as replacePets does, naming the bad one', async () => {
    const good = { id: 1, name: 'A', categoryId: 1 };
    expect(() => createMock({ pets: [good, { ...good, id: 2, status: 'lost' }] as never })).toThrow(
      expect.objectContaining({
        code: 'PETSTORE_MOCK_INVALID_PETS',
        message: expect.stringMatching(/^pets\[1\]\.status /),
      }),
    );
    expect(() => createMock({ pets: [good, good] })).toThrow('pets[1].id 1 is used twice');
    expect(await createMock({ pets: [good] }).pets.all()).toEqual([good]);
  });

  it('unknown control paths are 404, wrong methods 405 with Allow, and the profile is served', async () => {
    const { call } = setupMock();
    expectError(await call('GET', '/__control/nope', {}), 404, 'route_not_found');
    expectError(await call('GET', '/__control/scenarios/1', {}), 405, 'method_not_allowed');
    const wrong = await call('PATCH', '/__control/requests', {});
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET, HEAD, DELETE');
    const profile = await call('GET', '/__control/openapi.json', {});
    // The profile, with the servers block naming this mock's own base path (relative: any host, any port).
    const { servers } = json(profile);
    expect({ ...loadProfile(), servers }).toEqual(json(profile));
    expect(servers.map((s: { url: string }) => s.url)).toEqual(['/v1']);
  });
});

describe('request journal', () => {
  it('records API requests only, oldest first, with what was answered and why; keys never appear', async () => {
    const { call, mock } = setupMock();
    await call('GET', '/__control/pets', {});
    await call('GET', `/v1/pets?limit=2&status=sold&limit=3&k=${KEY}`, { ...AUTH, 'x-echo': `token ${KEY}` });
    await call('POST', '/v1/pets', { ...JSON_HEADERS, prefer: 'code=503' }, `{"name":"${KEY}","categoryId":1}`);
    await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'fault=reset' });
    const entries = json(await call('GET', '/__control/requests', {}));
    expect(entries).toEqual(mock.requests());
    expect(JSON.stringify(entries)).not.toContain(KEY);
    expect(entries.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: ['2', '3'], status: 'sold', k: '[REDACTED]' },
      headers: { authorization: '[REDACTED]', 'x-echo': 'token [REDACTED]' },
      status: 400,
      applied: {},
    });
    expect(entries[1]).toMatchObject({
      method: 'POST',
      body: '{"name":"[REDACTED]","categoryId":1}',
      status: 503,
      applied: { preferences: 'code=503' },
    });
    expect(entries[2]).toMatchObject({ path: '/v1/pets/1', status: null, fault: 'reset' });
    expect(typeof entries[2].durationMs).toBe('number');
  });

  it('filters by method and by path or template, and clears', async () => {
    const { call, mock } = setupMock();
    mock.scenarios.add({ method: 'GET', path: '/v1/pets/{petId}', status: 404, times: 1 });
    await call('GET', '/v1/pets/1');
    await call('GET', '/v1/pets/2');
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"A","categoryId":1}');
    expect(mock.requests({ method: 'post' })).toHaveLength(1);
    const items = json(await call('GET', '/__control/requests?path=/v1/pets/{petId}', {}));
    expect(items.map((e: { status: number; applied: object }) => [e.status, e.applied])).toEqual([
      [404, { scenario: '1' }],
      [200, {}],
    ]);
    expect(mock.requests({ path: '/v1/pets/2' })).toHaveLength(1);
    expect((await call('DELETE', '/__control/requests', {})).status).toBe(204);
    expect(mock.requests()).toEqual([]);
  });

  it('keeps only the last journalSize requests (0 keeps none)', async () => {
    const { call, mock } = setupMock({ journalSize: 3 });
    for (let i = 1; i <= 7; i++) await call('GET', `/v1/pets/${i}`);
    expect(mock.requests().map((e) => [e.seq, e.path])).toEqual([
      [5, '/v1/pets/5'],
      [6, '/v1/pets/6'],
      [7, '/v1/pets/7'],
    ]);
    const none = setupMock({ journalSize: 0 });
    await none.call('GET', '/v1/pets');
    expect(none.mock.requests()).toEqual([]);
  });
});

describe('rate limit, chaos, latency options', () => {
  it('--rate-limit: N per second per key, then 429 with Retry-After and the RateLimit headers; a new second starts afresh', async () => {
    let now = 10_250;
    const { call } = setupMock({ rateLimit: 2, now: () => now });
    const first = await call('GET', '/v1/pets');
    expect(first.headers).toMatchObject({ 'ratelimit-policy': '"default";q=2;w=1', ratelimit: '"default";r=1;t=1' });
    expect((await call('GET', '/v1/pets')).status).toBe(200);
    const refused = await call('GET', '/v1/pets');
    expect(expectError(refused, 429, 'rate_limited')).toContain('2 requests per second');
    expect(refused.headers).toMatchObject({ 'retry-after': '1', ratelimit: '"default";r=0;t=1' });
    expect((await call('GET', '/v1/pets', { authorization: 'Bearer other' })).status).toBe(401);
    expect((await call('GET', '/__control/health', {})).status).toBe(200);
    now = 11_000;
    expect((await call('GET', '/v1/pets')).status).toBe(200);
  });

  it('--rate-limit: one key is one bucket however Authorization spells it (scheme case, spaces)', async () => {
    const { call } = setupMock({ rateLimit: 3, now: () => 20_000 });
    for (const authorization of [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER   ${KEY}  `])
      expect((await call('GET', '/v1/pets', { authorization })).status).toBe(200);
    expect((await call('GET', '/v1/pets', { authorization: ` Bearer\t${KEY}` })).status).toBe(429);
    expect((await call('GET', '/v1/pets', { authorization: 'Bearer another-key' })).status).toBe(401);
  });

  it('--chaos: the same seed fails the same requests with service failures; 1 fails every API request', async () => {
    const statuses = async (seed: number) => {
      const { call } = setupMock({ chaos: 0.5, seed });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await call('GET', '/v1/pets')).status);
      return out;
    };
    const a = await statuses(3);
    expect(await statuses(3)).toEqual(a);
    expect(new Set(a.filter((s) => s !== 200)).size).toBeGreaterThan(1);
    for (const s of a) expect([200, 429, 500, 502, 503, 504]).toContain(s);
    const all = setupMock({ chaos: 1 });
    const failed = await all.call('GET', '/v1/pets/1');
    expect(failed.status).toBeGreaterThanOrEqual(429);
    expect(all.mock.requests()[0]!.applied.chaos).toBe(failed.status);
    expect((await all.call('GET', '/__control/pets', {})).status).toBe(200);
  });

  it('--latency: every API answer waits the fixed delay, or a seeded draw from the range; control answers do not', async () => {
    vi.useFakeTimers();
    /** Milliseconds of (fake) time until `answer` settles. */
    const waited = async (answer: Promise<unknown>): Promise<number> => {
      let done = false;
      void answer.then(() => (done = true));
      let ms = 0;
      for (await vi.advanceTimersByTimeAsync(0); !done; ms++) await vi.advanceTimersByTimeAsync(1);
      return ms;
    };
    const fixed = setupMock({ latency: 120 });
    expect(await waited(fixed.call('GET', '/v1/pets'))).toBe(120);
    expect(await waited(fixed.call('GET', '/__control/health', {}))).toBe(0);
    const draws = async (seed: number) => {
      const { call } = setupMock({ latency: { min: 50, max: 90 }, seed });
      const out: number[] = [];
      for (let i = 0; i < 6; i++) out.push(await waited(call('GET', '/v1/pets/1')));
      return out;
    };
    const first = await draws(9);
    expect(await draws(9)).toEqual(first);
    for (const ms of first) expect(ms >= 50 && ms <= 90, `${ms}`).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('refuses bad options with a PetstoreMockError, and parses MS and MIN-MAX latencies', () => {
    for (const options of [
      { latency: -1 },
      { latency: { min: 5, max: 1 } },
      { rateLimit: 0 },
      { chaos: 1.5 },
      { journalSize: -1 },
    ])
      expect(() => createMock(options)).toThrow(PetstoreMockError);
    expect(parseLatency('250')).toBe(250);
    expect(parseLatency('100-500')).toEqual({ min: 100, max: 500 });
    expect(() => parseLatency('fast')).toThrow(expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }));
  });
});

describe('the profile the mock serves', () => {
  const profile = loadProfile();
  const statuses = (path: string, method: string) => Object.keys(profile.paths[path]![method].responses).map(Number);

  it('documents every status the mock can answer on each operation, forced ones included', () => {
    const own: Record<string, number[]> = { listPets: [400], createPet: [413, 415, 507], getPet: [400] };
    for (const op of listOperations()) {
      const documented = statuses(op.path, op.method.toLowerCase());
      const answered = [...op.statuses, ...own[op.operationId]!, ...SCENARIO_STATUSES.filter((s) => s >= 429)];
      expect(documented.sort(), op.operationId).toEqual([...new Set(answered)].sort());
    }
  });
});
