import { describe, expect, it } from 'vitest';
import { PetstoreMockError } from '../errors.ts';
import { AUTH, CONTROL_JSON, JSON_HEADERS, json, setupMock } from '../test-support.ts';
import { MAX_PACT_NAME } from './document.ts';

const NAMES = { consumer: 'shop-web', provider: 'petstore' };

describe('pact(): one interaction per kind of request', () => {
  it('groups 500 identical listings into one interaction', async () => {
    const { mock, call } = setupMock();
    for (let i = 0; i < 500; i++) await call('GET', '/v1/pets');
    await call('GET', '/v1/pets?limit=2');
    const pact = mock.pact(NAMES);
    expect(pact.interactions.map((i) => i.description)).toEqual(['listPets', 'listPets with limit']);
    expect(pact.metadata.pactSpecification.version).toBe('4.0');
    expect(pact.consumer).toEqual({ name: 'shop-web' });
  });

  it('records a kind seen before clearPact() again after it, as a new one', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets');
    await call('GET', '/v1/pets');
    mock.clearPact();
    await call('GET', '/v1/pets');
    expect(mock.pact(NAMES).interactions.map((i) => i.description)).toEqual(['listPets']);
  });

  it('hands out a pact of its own each time: changing one changes neither the next nor what the recorder keeps', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/2');
    const first = mock.pact(NAMES);
    const second = mock.pact(NAMES);
    expect(second).toEqual(first);
    first.interactions[0]!.description = 'changed';
    first.interactions[0]!.response.headers = {};
    expect(mock.pact(NAMES)).toEqual(second);
    expect(mock.pact(NAMES).interactions[0]!.description).not.toBe('changed');
  });

  it('writes the path as the client sent it, decoded, below no base URL: the provider is verified at its origin', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets/2');
    await call('GET', '/v1/%70ets?limit=2');
    expect(mock.pact(NAMES).interactions.map((i) => i.request.path)).toEqual(['/v1/pets/2', '/v1/pets']);
    const openapi = mock.pact({ ...NAMES, paths: 'openapi' }).interactions.map((i) => i.request.path);
    expect(openapi).toEqual(['/pets/2', '/pets']);
    expect(() => mock.pact({ ...NAMES, paths: 'v1' as never })).toThrow(/paths must be sent or openapi, got v1/);
  });

  it("tells creates apart by their body's fields, not by their values: a field more or less is a kind of its own", async () => {
    const { mock, call } = setupMock();
    const create = (body: object) => call('POST', '/v1/pets', JSON_HEADERS, JSON.stringify(body));
    await create({ name: 'Rex', categoryId: 1 });
    await create({ categoryId: 2, name: 'Tom' });
    await create({ name: 'Mia', categoryId: 3, status: 'sold' });
    await create({ status: 'pending', name: 'Bo', categoryId: 4 });
    await create({ name: 'Al', categoryId: 5, nickname: 'Big Al' });
    const creates = mock.pact(NAMES).interactions.filter((i) => i.request.method === 'POST');
    expect(creates.map((i) => i.request.body?.content)).toEqual([
      { name: 'Rex', categoryId: 1 },
      { name: 'Mia', categoryId: 3, status: 'sold' },
      { name: 'Al', categoryId: 5, nickname: 'Big Al' },
    ]);
  });

  it('keeps at most 500 kinds, and says how many requests of a new kind it did not keep', async () => {
    const { mock, call } = setupMock();
    for (let i = 0; i < 503; i++) await call('GET', `/v1/pets?x${i}=1`);
    const pact = mock.pact(NAMES);
    expect(pact.interactions).toHaveLength(500);
    expect(pact.metadata.petstoreMock.warnings).toContain(
      '3 request(s) of a new kind were not kept: at most 500 kinds are',
    );
  });

  it('gives each answer the state the mock held for it', async () => {
    const pet = { id: 2, name: 'Milo', categoryId: 3, status: 'sold' as const };
    const { mock, call } = setupMock({ pets: [{ id: 1, name: 'Tom', categoryId: 1 }, pet] });
    await call('GET', '/v1/pets/2');
    await call('GET', '/v1/pets/999');
    await call('GET', '/v1/pets?status=sold');
    await call('GET', '/v1/pets');
    mock.replacePets([]);
    await call('GET', '/v1/pets?status=pending');
    await call('POST', '/v1/pets', JSON_HEADERS, JSON.stringify({ name: 'Rex', categoryId: 4 }));
    const states = Object.fromEntries(mock.pact(NAMES).interactions.map((i) => [i.description, i.providerStates]));
    expect(states).toEqual({
      'getPet for an existing id': [{ name: 'a pet with id 2 exists', params: { ...pet } }],
      'getPet for an unknown id': [{ name: 'no pet with id 999', params: { id: 999 } }],
      'listPets with status=sold': [{ name: 'a pet with status sold exists', params: { status: 'sold' } }],
      listPets: [{ name: 'pets exist', params: {} }],
      'listPets with status=pending when there are none to list': [{ name: 'no pets', params: {} }],
      'createPet without status': undefined,
    });
  });

  it('matches Pet fields by type and status by its enumeration, pinning no value the mock made up', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets?status=available');
    await call('GET', '/v1/pets/1');
    const [listing, one] = mock.pact({ ...NAMES, deprecationHeaders: true }).interactions;
    const rules = listing!.response.matchingRules!.body!;
    expect(rules.$!.matchers).toEqual([{ match: 'type', min: 1 }]);
    expect(rules['$[*].id']!.matchers).toEqual([{ match: 'integer' }]);
    expect(rules['$[*].categoryId']!.matchers).toEqual([{ match: 'integer' }]);
    expect(rules['$[*].name']!.matchers).toEqual([{ match: 'type' }]);
    expect(rules['$[*].status']!.matchers).toEqual([{ match: 'regex', regex: '^(available|pending|sold)$' }]);
    // Every value of every example is under a rule: none is asked for as it is.
    for (const interaction of [listing!, one!]) {
      const content = interaction.response.body!.content;
      const item = (Array.isArray(content) ? content[0] : content) as Record<string, unknown>;
      const prefix = Array.isArray(content) ? '$[*]' : '$';
      for (const field of Object.keys(item))
        expect(interaction.response.matchingRules!.body![`${prefix}.${field}`]).toBeDefined();
    }
    expect(one!.response.matchingRules!.header).toMatchObject({
      'Content-Type': { matchers: [{ match: 'regex' }] },
      Deprecation: { matchers: [{ match: 'regex' }] },
      Sunset: { matchers: [{ match: 'regex' }] },
    });
    expect(one!.response.headers!.Sunset).toEqual(['Thu, 05 Dec 2030 00:00:00 GMT']);
    // By default the pact asks only for what the contract declares: getPet's headers are the mock's choice.
    const plain = mock.pact(NAMES).interactions[1]!.response;
    expect(Object.keys(plain.headers!)).toEqual(['Content-Type']);
    expect(Object.keys(plain.matchingRules!.header!)).toEqual(['Content-Type']);
  });

  it('matches Error bodies by type and keeps a request without a key as it was sent', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets', {});
    const [missing] = mock.pact(NAMES).interactions;
    expect(missing!.description).toBe('listPets without a key');
    expect(missing!.request.headers).toBeUndefined();
    expect(missing!.response.status).toBe(401);
    expect(Object.keys(missing!.response.matchingRules!.body!).sort()).toEqual(['$.code', '$.message', '$.status']);
  });

  it('leaves out forced answers unless asked, then names each by the state "the service answers N"', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=503' });
    mock.scenarios.add({ status: 500, times: 1 });
    await call('GET', '/v1/pets/1');
    const plain = mock.pact(NAMES);
    expect(plain.interactions).toEqual([]);
    expect(plain.metadata.petstoreMock.warnings.join()).toMatch(/2 answer\(s\) forced/);
    const all = mock.pact({ ...NAMES, include: ['prefer', 'scenario'] });
    expect(all.interactions.map((i) => [i.description, i.providerStates![0]!.name])).toEqual([
      ['listPets when the service answers 503', 'the service answers 503'],
      ['getPet when the service answers 500', 'the service answers 500'],
    ]);
    // The header that forced it is no part of what a provider is asked.
    expect(JSON.stringify(all.interactions[0]!.request)).not.toMatch(/prefer/i);
    expect(mock.pact({ ...NAMES, include: ['chaos'] }).interactions).toEqual([]);
  });

  it('names the invalid requests and wrong keys it left out', async () => {
    const { mock, call } = setupMock();
    await call('GET', '/v1/pets?limit=0');
    await call('GET', '/v1/pets?limit=500');
    await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex"}');
    await call('GET', '/v1/pets', { authorization: 'Bearer not-the-key' });
    await call('GET', '/v1/nothing');
    const pact = mock.pact(NAMES);
    expect(pact.interactions).toEqual([]);
    expect(pact.metadata.petstoreMock.skipped.map((s) => [s.kind, s.count])).toEqual([
      ['listPets 400: limit must be an integer from 1 to 100', 2],
      ['createPet 400: invalid NewPet: categoryId is required', 1],
      ['listPets 401 with a key the mock does not accept', 1],
      ['GET: no operation', 1],
    ]);
  });
});

describe('pact(): secrets and bad input', () => {
  it('holds the key in no encoding, wherever the client put it', async () => {
    const key = 'sk/live+Key_0123456789';
    const { mock, call } = setupMock({ apiKeys: [key] });
    const auth = { authorization: `Bearer ${key}` };
    await call('GET', `/v1/pets?limit=1&note=${encodeURIComponent(key)}`, auth);
    const b64 = btoa(`user:${key}`);
    await call('GET', `/v1/pets?limit=2&basic=${b64}`, auth);
    await call('GET', `/v1/pets?limit=3&html=${encodeURIComponent(`&#115;${key.slice(1)}`)}`, auth);
    // The key JSON-escaped in the body the client sent.
    const body = `{"name":"\\u0073${key.slice(1)}","categoryId":1,"status":"sold"}`;
    await call('POST', '/v1/pets', { ...auth, 'content-type': 'application/json' }, body);
    await call('GET', '/v1/pets/1', { authorization: `bearer ${key}` });
    const text = JSON.stringify(mock.pact(NAMES));
    expect(text).not.toContain(key);
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text).not.toContain(b64.slice(4, 20));
    expect(text).not.toContain(btoa(key).slice(0, 16));
    expect(text).not.toContain(key.slice(1));
    expect(text).toContain('Bearer <key>');
    expect(text).toContain('[REDACTED]');
  });

  it('writes a valid file with a warning when nothing was recorded', () => {
    const { mock } = setupMock();
    const pact = mock.pact(NAMES);
    expect(pact.interactions).toEqual([]);
    expect(pact.metadata.petstoreMock.warnings).toEqual([expect.stringMatching(/^nothing was recorded/)]);
  });

  it.each([
    ['consumer', { consumer: '', provider: 'p' }, /must be a name/],
    ['consumer', { consumer: '   ', provider: 'p' }, /must be a name/],
    ['provider', { consumer: 'c', provider: 'x'.repeat(MAX_PACT_NAME + 1) }, /at most 200 characters, got 201/],
    ['provider', { consumer: 'c', provider: 'a\nb' }, /control character/],
    ['include', { ...NAMES, include: ['everything'] }, /scenario, prefer, chaos, rateLimit/],
  ])('refuses a bad %s by name', (option, options, problem) => {
    const { mock } = setupMock();
    let error: unknown;
    try {
      mock.pact(options as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PetstoreMockError);
    expect(error).toMatchObject({ code: 'PETSTORE_MOCK_BAD_OPTION', option });
    expect((error as PetstoreMockError).problem).toMatch(problem);
  });

  it('is served at GET /__control/pact, a bad name a 400 naming it', async () => {
    const { call } = setupMock();
    await call('GET', '/v1/pets');
    const ok = await call('GET', '/__control/pact?consumer=web&provider=petstore', {});
    expect(json(ok).interactions).toHaveLength(1);
    const bad = await call('GET', '/__control/pact?provider=petstore', {});
    expect(bad.status).toBe(400);
    expect(json(bad).message).toMatch(/^consumer must be a name/);
    const cleared = await call('DELETE', '/__control/pact', {});
    expect(cleared.status).toBe(204);
    expect(json(await call('GET', '/__control/pact?consumer=web&provider=petstore', {})).interactions).toEqual([]);
  });
});

describe('POST /__control/provider-states', () => {
  const post = (call: ReturnType<typeof setupMock>['call'], change: unknown) =>
    call('POST', '/__control/provider-states', CONTROL_JSON, JSON.stringify(change));

  it('makes each state of the vocabulary hold', async () => {
    const { mock, call } = setupMock();
    const pet = { id: 42, name: 'Rex', categoryId: 7, status: 'sold' };
    expect((await post(call, { state: 'a pet with id 42 exists', params: pet, action: 'setup' })).status).toBe(200);
    expect(mock.pets.get(42)).toEqual(pet);
    await post(call, { state: 'no pet with id 42', params: { id: 42 } });
    expect(mock.pets.get(42)).toBeUndefined();
    await post(call, { state: 'no pets', params: {} });
    expect(mock.pets.size).toBe(0);
    await post(call, { state: 'pets exist' });
    expect(mock.pets.size).toBe(1);
    await post(call, { state: 'a pet with status pending exists', params: { status: 'pending' } });
    expect((await mock.pets.all()).some((p) => p.status === 'pending')).toBe(true);
    await post(call, { state: 'the service answers 503', params: { status: 503 } });
    expect((await call('GET', '/v1/pets')).status).toBe(503);
    await post(call, { state: 'the service answers 503', params: { status: 503 }, action: 'teardown' });
    expect((await call('GET', '/v1/pets')).status).toBe(200);
  });

  it('refuses an unknown state with a 400 listing the known ones', async () => {
    const { call } = setupMock();
    const response = await post(call, { state: 'a cat exists', params: {} });
    expect(response.status).toBe(400);
    expect(json(response).message).toMatch(
      /unknown provider state "a cat exists"; the known states are: a pet with id/,
    );
    expect((await post(call, { params: {} })).status).toBe(400);
  });
});
