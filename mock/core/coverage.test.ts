import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCoverage, expectNoInvalidRequests, formatCoverage } from './coverage-report.ts';
import { AUTH, JSON_HEADERS, setupMock } from './test-support.ts';

const count = (report: ReturnType<ReturnType<typeof setupMock>['mock']['coverage']>, id: string) =>
  report.responses.find((r) => r.id === id)?.count ?? 0;

describe('contract coverage of what the mock answered', () => {
  it('counts each documented response received, lists those never received, and the forceable answers by source', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets?limit=1');
    await call('GET', '/v1/pets/1');
    await call('GET', '/v1/pets/999');
    await call('GET', '/v1/pets', {});
    await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=503' });
    mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 503, times: 1 });
    await call('GET', '/v1/pets');
    const report = mock.coverage();
    expect(report.requests).toBe(6);
    expect(count(report, 'listPets 200')).toBe(1);
    expect(count(report, 'listPets 401')).toBe(1);
    expect(count(report, 'getPet 200')).toBe(1);
    expect(count(report, 'getPet 404')).toBe(1);
    expect(report.responses.find((r) => r.id === 'listPets 503')).toMatchObject({
      documented: false,
      count: 2,
      bySource: { client: 0, scenario: 1, prefer: 1, chaos: 0, rateLimit: 0 },
    });
    expect(report.neverReceived).toEqual(['createPet 201', 'createPet 400', 'createPet 401', 'getPet 401']);
  });

  it('counts the variations a client of this interface needs, only for requests it sent itself', async () => {
    const { mock, call } = setupMock({ count: 0 });
    await call('GET', '/v1/pets');
    await call('GET', '/v1/pets?limit=1&status=sold');
    await call('GET', '/v1/pets?limit=100');
    await call('GET', '/v1/pets?limit=0');
    const created = await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":1}');
    await call('GET', created.headers.location!);
    await call('GET', '/v1/pets?limit=1', { ...AUTH, prefer: 'code=500' });
    const v = Object.fromEntries(mock.coverage().variations.map((x) => [x.id, x.count]));
    expect(v).toMatchObject({
      'listPets limit absent': 1,
      'listPets limit=1': 1,
      'listPets limit=100': 1,
      'listPets limit out of range': 1,
      'listPets no status filter': 3,
      'listPets status=sold': 1,
      'listPets status=available': 0,
      'listPets empty listing': 3,
      'getPet a created pet fetched back': 1,
    });
  });

  it('counts a read of a created pet as fetched back however the id is spelt, never a seeded pet, after a reset too, until coverage is cleared', async () => {
    const { mock, call } = setupMock({ count: 2 });
    const fetchedBack = () =>
      mock.coverage().variations.find((x) => x.id === 'getPet a created pet fetched back')?.count;
    for (let i = 0; i < 3; i++) await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":1}');
    await call('GET', '/v1/pets/1');
    await call('GET', '/v1/pets/2');
    expect(fetchedBack()).toBe(0);
    await call('GET', '/v1/pets/3');
    await call('GET', '/v1/pets/005');
    expect(fetchedBack()).toBe(2);
    await call('GET', '/v1/pets/6');
    // Back to the two seeded pets: ids 3 to 6 are created, 6 for the first time, and counted when read.
    await mock.reset();
    for (let i = 0; i < 4; i++) await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":1}');
    await call('GET', '/v1/pets/6');
    expect(fetchedBack()).toBe(3);
    // clearCoverage() forgets what was created before it.
    mock.clearCoverage();
    await call('GET', '/v1/pets/6');
    expect(fetchedBack()).toBe(0);
  });

  it('names each kind of invalid request the client sent, with one example; forced refusals are not its fault', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets?limit=0');
    await call('GET', '/v1/pets?limit=500');
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":"3"}');
    await call('GET', '/v1/pets', {});
    await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=401' });
    const kinds = mock.coverage().invalidRequests;
    expect(kinds.map((k) => [k.kind, k.count])).toEqual([
      ['listPets: limit must be an integer from 1 to 100', 2],
      [expect.stringMatching(/^createPet: .*categoryId/), 1],
      [expect.stringMatching(/^listPets: /), 1],
    ]);
    expect(kinds[0]!.example).toMatchObject({ request: 'GET /v1/pets?limit=0', status: 400 });
    expect(() => expectNoInvalidRequests(mock)).toThrow(
      /limit must be an integer from 1 to 100 \(2x; e\.g\. GET \/v1\/pets\?limit=0/,
    );
  });

  it('counts getPet as deprecated, with its sunset and replacement', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/1');
    await call('GET', '/v1/pets/2');
    expect(mock.coverage().deprecated).toEqual([
      {
        operationId: 'getPet',
        calls: 2,
        sunset: '2030-12-05',
        replacement: expect.stringContaining('/pets (listPets)'),
        removed: false,
      },
    ]);
  });

  it('survives reset(); clearCoverage() starts anew', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/1');
    await call('GET', '/v1/pets?limit=100');
    mock.reset();
    expect(count(mock.coverage(), 'getPet 200')).toBe(1);
    mock.clearCoverage();
    expect(mock.coverage().requests).toBe(0);
    // Counted anew after the clear, the same requests as before included (nothing counts into the old counters).
    await call('GET', '/v1/pets?limit=100');
    await call('GET', '/v1/pets?limit=100');
    await call('GET', '/v1/pets/1');
    const report = mock.coverage();
    expect([count(report, 'getPet 200'), count(report, 'listPets 200')]).toEqual([1, 2]);
    expect(report.variations.find((v) => v.id === 'listPets limit=100')?.count).toBe(2);
  });

  it('GET /__control/coverage gives the same report; DELETE clears it; control calls are not counted', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/1');
    const read = await call('GET', '/__control/coverage', {});
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body)).toEqual({ ...mock.coverage() });
    expect((await call('DELETE', '/__control/coverage', {})).status).toBe(204);
    expect(mock.coverage().requests).toBe(0);
  });

  it('keeps counters, not a log: 20,000 requests leave the report the size 20 did', async () => {
    const { mock, call } = setupMock();
    for (let i = 0; i < 20; i++) await call('GET', `/v1/pets?limit=${(i % 100) + 1}`);
    const small = JSON.stringify(mock.coverage()).length;
    for (let i = 0; i < 20_000; i++) await call('GET', `/v1/pets?limit=${(i % 100) + 1}`);
    expect(JSON.stringify(mock.coverage()).length).toBeLessThanOrEqual(small + 40);
  });
});

describe('coverage and the pact of requests sent in turn', () => {
  // Six kinds of answer, more than either keeps found at hand (four): each with its row and its kind of interaction.
  const kinds: { row: string; send: [method: string, url: string, headers?: Record<string, string>, body?: string] }[] =
    [
      { row: 'listPets 200', send: ['GET', '/v1/pets?limit=2'] },
      { row: 'getPet 200', send: ['GET', '/v1/pets/1'] },
      { row: 'getPet 404', send: ['GET', '/v1/pets/999'] },
      { row: 'listPets 401', send: ['GET', '/v1/pets', {}] },
      { row: 'createPet 201', send: ['POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":1}'] },
      { row: 'createPet 400', send: ['POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex"}'] },
    ];

  it('counts every answer in its own row, and the pact holds the kinds sent, in whatever order they come', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(kinds.length - 1), { minLength: 10, maxLength: 40 }), async (order) => {
        const { mock, call } = setupMock();
        for (const i of order) {
          const [method, url, headers, body] = kinds[i]!.send;
          await call(method, url, headers, body);
        }
        const report = mock.coverage();
        for (const [i, { row }] of kinds.entries())
          expect(count(report, row), row).toBe(order.filter((k) => k === i).length);
        // The same kinds sent once each, one after another, make the same interactions.
        const once = setupMock();
        for (const i of [...new Set(order)].sort()) {
          const [method, url, headers, body] = kinds[i]!.send;
          await once.call(method, url, headers, body);
        }
        const described = (m: typeof mock) =>
          m
            .pact({ consumer: 'c', provider: 'p' })
            .interactions.map((x) => x.description)
            .sort();
        expect(described(mock)).toEqual(described(once.mock));
      }),
      { numRuns: 60 },
    );
  });
});

describe('the sunset, tried before it comes (asOf)', () => {
  it('before 5 December 2030 getPet answers with Deprecation and Sunset; from then on it is an unknown route', async () => {
    const before = setupMock({ asOf: '2030-12-04' });
    const ok = await before.call('GET', '/v1/pets/1');
    expect(ok.status).toBe(200);
    expect(ok.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const after = setupMock({ asOf: '2030-12-05' });
    const gone = await after.call('GET', '/v1/pets/1');
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body)).toMatchObject({ code: 'route_not_found', status: 404 });
    expect((await after.call('GET', '/v1/pets')).status).toBe(200);
    expect(after.mock.coverage().deprecated[0]).toMatchObject({ calls: 1, removed: true });
    expect(after.mock.coverage().unknownRoutes).toBe(1);
  });

  it('refuses what is not a date', () => {
    for (const asOf of ['2030-02-30', 'tomorrow', '05/12/2030'])
      expect(() => setupMock({ asOf })).toThrow(/asOf must be a date such as 2030-12-05/);
  });
});

describe('reading and gating coverage', () => {
  it('formats a terminal table and Markdown, and expectCoverage names what was never exercised', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/1');
    expect(formatCoverage(mock)).toMatch(/^getPet 200 +yes +1 +client 1$/m);
    expect(formatCoverage(mock, 'markdown')).toContain('| getPet 404 | yes | 0 |  |');
    expect(() => expectCoverage(mock, { responses: ['getPet 200'] })).not.toThrow();
    expect(() => expectCoverage(mock, { responses: ['getPet 404', 'createPet 400'] })).toThrow(
      /never exercised getPet 404, createPet 400/,
    );
    expect(() => expectCoverage(mock, { responses: ['getPet 99x'] })).toThrow(TypeError);
  });
});

describe('kinds of invalid request', () => {
  it('are one kind whatever value or position the message names', async () => {
    const { mock, call } = setupMock();
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"a", x}');
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"a longer name", y}');
    await call('GET', '/v1/pets?limit=0');
    await call('GET', '/v1/pets?limit=7000');
    expect(mock.coverage().invalidRequests.map((k) => [k.kind, k.count])).toEqual([
      [expect.stringMatching(/^createPet: request body is not valid JSON: [^0-9]*$/), 2],
      ['listPets: limit must be an integer from 1 to 100', 2],
    ]);
  });
});
