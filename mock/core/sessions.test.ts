import { describe, expect, it } from 'vitest';
import { PetstoreMockError } from './errors.ts';
import { AUTH, CONTROL_JSON, expectError, JSON_HEADERS, json, setupMock } from './test-support.ts';

const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 3 });

describe('sessions: each a mock of its own on the same mock', () => {
  it('keeps pets, ids, scenarios, resets and the journal apart from other sessions and from requests outside', async () => {
    const { mock, call } = setupMock();
    const a = mock.session('a');
    mock.session('b');
    const seeded = json(await call('GET', '/v1/pets'));
    // The same seed, the same pets, in every session.
    expect(json(await call('GET', '/sessions/a/v1/pets'))).toEqual(seeded);
    expect(json(await call('GET', '/v1/pets', { ...AUTH, 'petstore-session': 'b' }))).toEqual(seeded);

    expect((await call('POST', '/sessions/a/v1/pets', JSON_HEADERS, NEW_PET)).status).toBe(201);
    // Each its own id sequence: b's first pet gets the id a's did.
    const inB = await call('POST', '/v1/pets', { ...JSON_HEADERS, 'petstore-session': 'b' }, NEW_PET);
    expect(json(inB).id).toBe(4);
    expect(a.pets.size).toBe(4);
    expect(mock.pets.size).toBe(3);

    a.scenarios.add({ path: '/v1/pets', status: 503 });
    expect((await call('GET', '/sessions/a/v1/pets')).status).toBe(503);
    expect((await call('GET', '/sessions/b/v1/pets')).status).toBe(200);
    expect((await call('GET', '/v1/pets')).status).toBe(200);

    // A reset through the session's own control endpoint touches that session only.
    expect((await call('POST', '/sessions/a/__control/reset', {})).status).toBe(200);
    expect(a.pets.size).toBe(3);
    expect(json(await call('GET', '/sessions/b/v1/pets'))).toHaveLength(4);
    expect(mock.requests().map((e) => e.path)).toEqual(['/v1/pets', '/v1/pets']);
    expect(a.requests()).toHaveLength(0);
  });

  it('answers byte for byte as outside, with Location and Link under the session URL when reached by URL', async () => {
    const { mock, call } = setupMock();
    mock.session('s1');
    mock.session('s2');
    const outside = await call('POST', '/v1/pets', JSON_HEADERS, NEW_PET);
    const byUrl = await call('POST', '/sessions/s1/v1/pets', JSON_HEADERS, NEW_PET);
    const byHeader = await call('POST', '/v1/pets', { ...JSON_HEADERS, 'petstore-session': 's2' }, NEW_PET);
    expect(byUrl.body).toBe(outside.body);
    expect(byUrl.headers).toEqual({ ...outside.headers, location: '/sessions/s1/v1/pets/4' });
    expect(byHeader).toEqual(outside);
    const link = (await call('GET', '/sessions/s1/v1/pets/1')).headers.link;
    expect(link).toBe('</sessions/s1/v1/pets>; rel="successor-version"');
    expect((await call('GET', '/v1/pets/1', { ...AUTH, 'petstore-session': 's1' })).headers.link).toBe(
      '</v1/pets>; rel="successor-version"',
    );
  });

  it('keeps each session its own rate-limit buckets', async () => {
    const { mock, call } = setupMock({ rateLimit: 1, now: () => 5_000 });
    mock.session('a');
    expect((await call('GET', '/v1/pets')).status).toBe(200);
    expect((await call('GET', '/v1/pets')).status).toBe(429);
    expect((await call('GET', '/sessions/a/v1/pets')).status).toBe(200);
  });

  it("counts a session's coverage as its own, and every session's (ended ones too) in the mock's", async () => {
    const { mock, call } = setupMock();
    const a = mock.session('a');
    await call('GET', '/sessions/a/v1/pets/1');
    await call('GET', '/v1/pets', { ...AUTH, 'petstore-session': 'a' });
    await a.close();
    const b = mock.session();
    await call('GET', `/sessions/${b.name}/v1/pets/999`);
    const count = (report: ReturnType<typeof mock.coverage>, id: string) =>
      report.responses.find((r) => r.id === id)?.count;
    expect(count(a.coverage(), 'getPet 200')).toBe(1);
    expect(count(b.coverage(), 'getPet 200')).toBe(0);
    expect(count(mock.coverage(), 'getPet 200')).toBe(1);
    expect(count(mock.coverage(), 'getPet 404')).toBe(1);
    expect(count(mock.coverage(), 'listPets 200')).toBe(1);
    expect(mock.coverage().requests).toBe(3);
  });

  it("counts each request once: the mock's coverage adds its sessions' up when read, and each view clears apart", async () => {
    const { mock, call } = setupMock();
    const a = mock.session('a');
    const count = (report: ReturnType<typeof mock.coverage>, id: string) =>
      report.responses.find((r) => r.id === id)?.count;
    await call('GET', '/sessions/a/v1/pets');
    await call('GET', '/v1/pets');
    expect([count(a.coverage(), 'listPets 200'), count(mock.coverage(), 'listPets 200')]).toEqual([1, 2]);
    // The mock's clear leaves the session's own count; what the session counts after it, both see.
    mock.clearCoverage();
    expect([count(a.coverage(), 'listPets 200'), count(mock.coverage(), 'listPets 200')]).toEqual([1, 0]);
    await call('GET', '/sessions/a/v1/pets?limit=2');
    expect([count(a.coverage(), 'listPets 200'), count(mock.coverage(), 'listPets 200')]).toEqual([2, 1]);
    expect(a.coverage().variations.find((v) => v.id === 'listPets limit absent')?.count).toBe(1);
    // The session's clear leaves the mock's; an ended session's counts stay in the mock's until it clears.
    a.clearCoverage();
    await call('GET', '/sessions/a/v1/pets/1');
    expect([count(a.coverage(), 'listPets 200'), count(mock.coverage(), 'listPets 200')]).toEqual([0, 1]);
    expect([count(a.coverage(), 'getPet 200'), count(mock.coverage(), 'getPet 200')]).toEqual([1, 1]);
    await a.close();
    await call('GET', '/sessions/a/v1/pets');
    expect(mock.coverage()).toMatchObject({ requests: 2 });
    expect(count(mock.coverage(), 'getPet 200')).toBe(1);
    mock.clearCoverage();
    expect(mock.coverage().requests).toBe(0);
    expect(a.coverage().requests).toBe(1);
  });

  it("answers in a session with the mock's CORS headers, a refused session request too", async () => {
    const { mock, call } = setupMock({ corsOrigins: [] });
    mock.session('c');
    const origin = { origin: 'http://localhost:5173' };
    const outside = await call('POST', '/v1/pets', { ...JSON_HEADERS, ...origin }, NEW_PET);
    const byUrl = await call('POST', '/sessions/c/v1/pets', { ...JSON_HEADERS, ...origin }, NEW_PET);
    expect(byUrl.headers).toEqual({ ...outside.headers, location: '/sessions/c/v1/pets/4' });
    expect(outside.headers['access-control-expose-headers']).toContain('Location');
    const unknown = await call('GET', '/sessions/nobody/v1/pets', { ...AUTH, ...origin });
    expectError(unknown, 404, 'session_not_found');
    expect(unknown.headers).toMatchObject({ 'access-control-allow-origin': 'http://localhost:5173', vary: 'Origin' });
    expect((await call('GET', '/sessions/c', { ...AUTH, ...origin })).headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
  });

  it('journals a request in a session by URL as the session saw it, the query as sent', async () => {
    const { mock, call } = setupMock();
    const j = mock.session('j');
    await call('GET', 'http://127.0.0.1:4010/sessions/j/v1/pets?limit=2&status=sold');
    expect(j.requests().map(({ path, query }) => ({ path, query }))).toEqual([
      { path: '/v1/pets', query: { limit: '2', status: 'sold' } },
    ]);
    expect(mock.requests()).toHaveLength(0);
  });

  it('creates, lists and ends sessions over the control endpoints, answering the base URL', async () => {
    const { mock, call } = setupMock();
    const made = await call('POST', '/__control/sessions', CONTROL_JSON, '{"name":"w1"}');
    expect(made.status).toBe(201);
    expect(json(made)).toEqual({
      name: 'w1',
      url: '/sessions/w1/v1',
      control: '/sessions/w1/__control',
      header: { 'Petstore-Session': 'w1' },
    });
    const generated = json(await call('POST', '/__control/sessions', {}));
    expect(generated.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(json(await call('GET', '/__control/sessions', {})).map((s: { name: string }) => s.name)).toEqual([
      'w1',
      generated.name,
    ]);
    expect((await call('DELETE', '/__control/sessions/w1', {})).status).toBe(204);
    expectError(await call('DELETE', '/__control/sessions/w1', {}), 404, 'session_not_found');
    expect(mock.pets.size).toBe(3);
  });
});

describe('sessions: bad input is a clear Error, and nothing is lost elsewhere', () => {
  it('refuses an unknown, an ended, a bad name and the limit, leaving the live sessions as they were', async () => {
    const { mock, call } = setupMock({ sessions: { max: 2 } });
    const kept = mock.session('kept');
    await call('POST', '/sessions/kept/v1/pets', JSON_HEADERS, NEW_PET);
    const gone = mock.session('gone');
    await gone.close();

    expect(expectError(await call('GET', '/sessions/nobody/v1/pets'), 404, 'session_not_found')).toContain(
      'POST /__control/sessions',
    );
    expect(expectError(await call('GET', '/sessions/gone/v1/pets'), 410, 'session_ended')).toContain('close()');
    expectError(await call('GET', '/v1/pets', { ...AUTH, 'petstore-session': 'gone' }), 410, 'session_ended');
    for (const name of ['a/b', '..', '.', 'x'.repeat(300), '', 'é', 'a%2Fb']) {
      const made = await call('POST', '/__control/sessions', CONTROL_JSON, JSON.stringify({ name }));
      expect(expectError(made, 400, 'invalid_session_name')).toContain('1 to 64 letters');
      expect(() => mock.session(name)).toThrow(PetstoreMockError);
      if (name !== '')
        expectError(await call('GET', '/v1/pets', { ...AUTH, 'petstore-session': name }), 400, 'invalid_session_name');
    }
    // In the URL, `..` and an escaped `/` are names refused, never a path out of the segment.
    expectError(await call('GET', '/sessions/../v1/pets'), 400, 'invalid_session_name');
    expectError(await call('GET', '/sessions/kept%2F..%2F/v1/pets'), 400, 'invalid_session_name');
    expectError(await call('GET', `/sessions/${'x'.repeat(300)}/v1/pets`), 400, 'invalid_session_name');
    expectError(
      await call('GET', '/sessions/kept/v1/pets', { ...AUTH, 'petstore-session': 'other' }),
      400,
      'invalid_session_name',
    );
    // A long name is cut in the message, never echoed whole.
    const long = json(await call('GET', `/sessions/${'y'.repeat(300)}/v1/pets`)).message as string;
    expect(long.length).toBeLessThan(200);

    mock.session('second');
    expect(expectError(await call('POST', '/__control/sessions', {}), 409, 'session_limit')).toContain('limit');
    expect(() => mock.session()).toThrow(/sessions are live, the limit/);
    expectError(await call('POST', '/__control/sessions', CONTROL_JSON, '{"name":"kept"}'), 409, 'session_exists');

    expect(kept.pets.size).toBe(4);
    expect(json(await call('GET', '/sessions/kept/v1/pets'))).toHaveLength(4);
    expect(mock.pets.size).toBe(3);
  });

  it('ends a session idle longer than sessions.idleMs (410 after), and never one in use', async () => {
    let now = 0;
    const { mock, call } = setupMock({ sessions: { idleMs: 1_000 }, now: () => now });
    mock.session('busy');
    mock.session('idle');
    for (now = 0; now <= 3_000; now += 500) expect((await call('GET', '/sessions/busy/v1/pets')).status).toBe(200);
    expect(expectError(await call('GET', '/sessions/idle/v1/pets'), 410, 'session_ended')).toContain(
      'no request for 1 s',
    );
  });

  it('gives each session a share of storeBytes, refusing one whose pets do not fit (507), with what to change', async () => {
    const { mock, call } = setupMock({ storeBytes: 1_000, sessions: { max: 10 } });
    expect(expectError(await call('POST', '/__control/sessions', {}), 507, 'store_full')).toContain(
      'storeBytes / sessions.max = 100 bytes',
    );
    expect(mock.pets.size).toBe(3);
  });

  it('asks the control key for the session controls, and only the API key for the API in a session', async () => {
    const controlKey = 'control-key-0123456789';
    const { mock, call } = setupMock({ controlKey });
    const control = { authorization: `Bearer ${controlKey}` };
    expectError(await call('POST', '/__control/sessions', {}), 401, 'control_key_required');
    expectError(await call('GET', '/__control/sessions', AUTH), 401, 'control_key_required');
    expect((await call('POST', '/__control/sessions', { ...control, ...CONTROL_JSON }, '{"name":"k"}')).status).toBe(
      201,
    );
    expectError(await call('POST', '/sessions/k/__control/reset', AUTH), 401, 'control_key_required');
    expectError(await call('DELETE', '/__control/sessions/k', AUTH), 401, 'control_key_required');
    expect((await call('POST', '/sessions/k/__control/reset', control)).status).toBe(200);
    expect((await call('GET', '/sessions/k/v1/pets')).status).toBe(200);
    expect(mock.session('m').url).toBe('/sessions/m/v1');
  });

  it("names Petstore-Session in a preflight, and refuses a foreign page a session's controls", async () => {
    const { mock, call } = setupMock({ corsOrigins: [] });
    mock.session('p');
    const preflight = await call('OPTIONS', '/v1/pets', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization, petstore-session',
    });
    expect(preflight.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Prefer, Petstore-Session',
    );
    expect(
      (await call('GET', '/v1/pets', { ...AUTH, origin: 'http://localhost:5173', 'petstore-session': 'p' })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('http://localhost:5173');
    expectError(
      await call('POST', '/sessions/p/__control/reset', { origin: 'http://localhost:5173' }),
      403,
      'origin_not_allowed',
    );
  });

  it('refuses bad session options, naming the option', () => {
    for (const [sessions, option] of [
      [{ max: 0 }, 'sessions.max'],
      [{ max: 10_001 }, 'sessions.max'],
      [{ idleMs: -1 }, 'sessions.idleMs'],
      [{ idleMs: 1.5 }, 'sessions.idleMs'],
      [{ most: 3 }, 'most'],
      [[], 'sessions'],
    ] as const)
      expect(() => setupMock({ sessions: sessions as never })).toThrow(
        expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION', option }),
      );
  });

  it('does not nest: a session holds no sessions', () => {
    const { mock } = setupMock();
    expect(() => mock.session('outer').session('inner')).toThrow(/do not nest/);
  });
});
