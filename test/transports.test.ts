/**
 * One mock, three ways to reach it, one suite: the whole conformance suite,
 * strict, against the node:http server (a port), through the undici
 * Dispatcher (no socket), and through MSW's `setupServer` in Node (the
 * suite's requests go out with the global fetch, which MSW intercepts). Each
 * must pass, answer every case with the same statuses, and refuse a wrong key.
 */
import { setupServer } from 'msw/node';
import mswPackage from 'msw/package.json' with { type: 'json' };
import { fetch as undiciFetch } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceError, type Report, runConformance } from '../conformance/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { type PetstoreMock, startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';
import { createFetchDispatcher } from './support/fetch-dispatcher.ts';

const KEY = 'transport-key';
const MOCK = { seed: 7, count: 20, apiKeys: [KEY] };

/**
 * One mock and how the application's code reaches it. `mock` is what the adapter returned, used as is:
 * the same controls on every adapter, so nothing here smooths them over.
 */
interface Reach {
  mock: PetstoreMock;
  /** The dispatcher the suite needs (MSW intercepts the global fetch, which the suite does not use). */
  dispatcher?: Parameters<typeof runConformance>[0]['dispatcher'];
  /** How an application's own code reaches it: global fetch, or undici's fetch with the dispatcher. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** What else the transport needs stopped (MSW's setupServer). */
  stop?(): void;
}

const TRANSPORTS: [string, () => Promise<Reach>][] = [
  ['the node server (a port)', async () => ({ mock: await startMockServer({ ...MOCK, port: 0 }), fetch })],
  [
    'the undici dispatcher (no socket)',
    async () => {
      const dispatcher = createMockDispatcher({ ...MOCK, baseUrl: 'http://petstore.test/v1' });
      const fetchWith = (url: string, init: RequestInit) =>
        undiciFetch(url, {
          ...(init as Parameters<typeof undiciFetch>[1]),
          dispatcher,
        }) as unknown as Promise<Response>;
      return { mock: dispatcher, dispatcher, fetch: fetchWith };
    },
  ],
  [
    `MSW ${mswPackage.version} setupServer in Node (no socket)`,
    async () => {
      const petstore = createMswHandlers({ ...MOCK, baseUrl: 'https://api.example.test/v1' });
      const server = setupServer(...petstore.handlers);
      // The default for a request no handler takes: a warning, then the real network, where api.example.test fails.
      server.listen();
      return { mock: petstore, dispatcher: createFetchDispatcher(), fetch, stop: () => server.close() };
    },
  ],
];

/** What a run answered, case by case: outcome and the status of each exchange (ids of created pets left out). */
function answers(report: Report): string[] {
  return report.cases.map((c) => `${c.id} ${c.outcome} ${c.exchanges.map((e) => e.response?.status ?? e.error?.code)}`);
}

let reach: Reach | undefined;
afterEach(async () => {
  await reach?.mock.close();
  reach?.stop?.();
  reach = undefined;
});

let reference: Report;
beforeAll(async () => {
  const server = await startMockServer({ ...MOCK, port: 0 });
  try {
    reference = await runConformance({ baseUrl: server.url, apiKey: KEY, strict: true, concurrency: 1 });
  } finally {
    await server.close();
  }
});

describe.each(TRANSPORTS)('the conformance suite through %s', (_name, open) => {
  it('passes every case, strict, with the same answers as the node server', async () => {
    reach = await open();
    const report = await runConformance({
      baseUrl: reach.mock.url,
      apiKey: KEY,
      strict: true,
      concurrency: 1,
      ...(reach.dispatcher ? { dispatcher: reach.dispatcher } : {}),
    });
    expect(report.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary.total).toBeGreaterThan(50);
    expect(answers(report)).toEqual(answers(reference));
  });

  it('reaches the mock itself: a key it does not accept is refused on every request', async () => {
    reach = await open();
    const run = runConformance({
      baseUrl: reach.mock.url,
      apiKey: 'not-the-key',
      ...(reach.dispatcher ? { dispatcher: reach.dispatcher } : {}),
    });
    await expect(run).rejects.toBeInstanceOf(ConformanceError);
    await expect(run).rejects.toMatchObject({ code: 'PETSTORE_CONFORMANCE_KEY_REJECTED' });
  });
});

/** A GET of pet 1 with `Prefer: prefer`, through the transport's own client path. */
function getWithPrefer(reach: Reach, prefer: string, signal?: AbortSignal): Promise<Response> {
  const init = { headers: { authorization: `Bearer ${KEY}`, prefer }, ...(signal ? { signal } : {}) };
  return reach.fetch(`${reach.mock.url}/pets/1`, init);
}

describe.each(TRANSPORTS)('forced answers and transport faults through %s', (_name, open) => {
  it('code=503 is a 503 Error with Retry-After; malformed is a 200 whose body is not JSON', async () => {
    reach = await open();
    const forced = await getWithPrefer(reach, 'code=503');
    expect(forced.status).toBe(503);
    expect(forced.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await forced.json()).toMatchObject({ status: 503 });
    const malformed = await getWithPrefer(reach, 'fault=malformed');
    expect(malformed.status).toBe(200);
    const text = await malformed.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it.each(['reset', 'close'])('fault=%s fails the request as a network error, with no response', async (fault) => {
    reach = await open();
    await expect(getWithPrefer(reach, `fault=${fault}`)).rejects.toThrow();
  });

  it('fault=truncated gives the status and headers, then the body fails part way', async () => {
    reach = await open();
    const response = await getWithPrefer(reach, 'fault=truncated');
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10);
    await expect(response.text()).rejects.toThrow();
  });

  it('the journal keeps the request as sent: its headers, the key redacted, the query decoded', async () => {
    reach = await open();
    const response = await reach.fetch(`${reach.mock.url}/pets?limit=2`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-trace': 'trace-1' },
    });
    expect(response.status).toBe(200);
    const [entry] = reach.mock.requests().filter((e) => e.headers['x-trace'] !== undefined);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '2' },
      status: 200,
      headers: { authorization: '[REDACTED]', 'x-trace': 'trace-1' },
    });
  });

  it('GET /v1/%70ets is listPets everywhere: forced, journaled, scenario-matched and counted like /v1/pets', async () => {
    reach = await open();
    const { mock } = reach;
    const get = (prefer?: string) =>
      reach!.fetch(`${mock.url}/%70ets`, {
        headers: { authorization: `Bearer ${KEY}`, ...(prefer === undefined ? {} : { prefer }) },
      });
    expect((await get()).status).toBe(200);
    // listPets documents 401: Prefer may force it here as on /v1/pets.
    const forced = await get('code=401');
    expect(forced.status).toBe(401);
    expect(forced.headers.get('preference-applied')).toBe('code=401');
    mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 503, times: 1 });
    expect((await get()).status).toBe(503);
    expect(mock.requests({ path: '/v1/pets' }).map((e) => [e.path, e.operationId, e.status])).toEqual([
      ['/v1/%70ets', 'listPets', 200],
      ['/v1/%70ets', 'listPets', 401],
      ['/v1/%70ets', 'listPets', 503],
    ]);
    const counted = mock.coverage().responses.filter((r) => r.operationId === 'listPets' && r.count > 0);
    expect(counted.map((r) => [r.id, r.bySource])).toEqual([
      ['listPets 200', expect.objectContaining({ client: 1 })],
      ['listPets 401', expect.objectContaining({ prefer: 1 })],
      ['listPets 503', expect.objectContaining({ scenario: 1 })],
    ]);
    expect(mock.coverage().unknownRoutes).toBe(0);
  });

  it('fault=hang answers nothing until the client gives up', async () => {
    reach = await open();
    const started = performance.now();
    await expect(getWithPrefer(reach, 'fault=hang', AbortSignal.timeout(300))).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('an answer the client gave up on (delay=400, its timeout 100 ms) is journaled and counted as abandoned', async () => {
    reach = await open();
    await expect(getWithPrefer(reach, 'delay=400', AbortSignal.timeout(100))).rejects.toThrow();
    let entry: ReturnType<PetstoreMock['requests']>[number] | undefined;
    for (let i = 0; i < 100 && entry === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      entry = reach.mock.requests({ path: '/v1/pets/{petId}' })[0];
    }
    expect(entry).toMatchObject({ status: 200, abandoned: true });
    expect(reach.mock.coverage().responses.find((r) => r.id === 'getPet 200')).toMatchObject({
      count: 0,
      abandoned: 1,
    });
  });
});

/** The names of the control interface, with what each is: the same on every adapter. */
const CONTROLS: Record<keyof PetstoreMock, string> = {
  url: 'string',
  apiKeys: 'object',
  pets: 'object',
  scenarios: 'object',
  requests: 'function',
  clearRequests: 'function',
  replacePets: 'function',
  reset: 'function',
  ready: 'object',
  coverage: 'function',
  clearCoverage: 'function',
  pact: 'function',
  clearPact: 'function',
  setProviderState: 'function',
  session: 'function',
  close: 'function',
};

describe.each(TRANSPORTS)('the control interface of %s', (_name, open) => {
  it('has the same names, and the same calls give the same results', async () => {
    reach = await open();
    const { mock } = reach;
    expect(
      Object.fromEntries(Object.keys(CONTROLS).map((name) => [name, typeof mock[name as keyof PetstoreMock]])),
    ).toEqual(CONTROLS);
    // Seed 7 does not ship as data: faker loads in the background on the socketless adapters.
    await mock.ready;
    expect(mock.url).toMatch(/\/v1$/);
    expect(mock.apiKeys).toEqual([KEY]);
    const auth = { headers: { authorization: `Bearer ${KEY}` } };
    expect(mock.pets.size).toBe(20);
    expect(await (await reach.fetch(`${mock.url}/pets/3`, auth)).json()).toEqual(mock.pets.get(3));
    expect(mock.pets.all()).toHaveLength(20);

    const pets = [
      { id: 5, name: 'Rex', categoryId: 1, status: 'available' as const },
      { id: 9, name: 'Tom', categoryId: 2 },
    ];
    mock.replacePets(pets);
    expect(mock.pets.all()).toEqual(pets);
    expect(mock.pets.get(1)).toBeUndefined();
    expect(() => mock.replacePets([{ id: 1 } as never])).toThrow(
      expect.objectContaining({ code: 'PETSTORE_MOCK_INVALID_PETS' }),
    );

    mock.clearRequests();
    const scenario = mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 503, times: 1 });
    expect(mock.scenarios.list().map((s) => s.id)).toEqual([scenario.id]);
    expect((await reach.fetch(`${mock.url}/pets`, auth)).status).toBe(503);
    expect(await (await reach.fetch(`${mock.url}/pets`, auth)).json()).toEqual(pets);
    expect(mock.requests({ method: 'GET', path: '/v1/pets' }).map((e) => e.status)).toEqual([503, 200]);
    mock.clearRequests();
    expect(mock.requests()).toEqual([]);

    mock.scenarios.add({ method: 'GET', path: '/v1/pets/{petId}', status: 500 });
    mock.reset();
    expect(mock.scenarios.list()).toEqual([]);
    expect(mock.pets.size).toBe(20);
    expect((await reach.fetch(`${mock.url}/pets/3`, auth)).status).toBe(200);

    await mock.close();
    await expect(reach.fetch(`${mock.url}/pets/3`, auth)).rejects.toThrow();
    await mock.close();
  });
});

describe.each(TRANSPORTS)('client coverage through %s', (_name, open) => {
  it('gives back exactly the subset a client exercised, counts included; forced answers counted as forced', async () => {
    reach = await open();
    const { mock } = reach;
    await mock.ready;
    const send = (path: string, init: RequestInit = {}) =>
      reach!.fetch(`${mock.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...init.headers },
      });
    await send('/pets?limit=1');
    await send('/pets?limit=1');
    await send('/pets/3');
    await send('/pets?limit=0');
    await send('/pets', { headers: { prefer: 'code=503' } });
    const created = await send('/pets', { method: 'POST', body: '{"name":"Rex","categoryId":2}' });
    expect(created.status).toBe(201);
    mock.reset();
    const report = mock.coverage();
    const received = Object.fromEntries(report.responses.filter((r) => r.count > 0).map((r) => [r.id, r.count]));
    expect(received).toEqual({
      'listPets 200': 2,
      'listPets 400': 1,
      'getPet 200': 1,
      'listPets 503': 1,
      'createPet 201': 1,
    });
    expect(report.responses.find((r) => r.id === 'listPets 503')?.bySource).toMatchObject({ client: 0, prefer: 1 });
    expect(report.invalidRequests).toEqual([
      {
        kind: 'listPets: limit must be an integer from 1 to 100',
        count: 1,
        example: expect.objectContaining({ request: 'GET /v1/pets?limit=0', status: 400 }),
      },
    ]);
    expect(report.deprecated[0]).toMatchObject({ operationId: 'getPet', calls: 1, sunset: '2030-12-05' });
    expect([...report.neverReceived].sort()).toEqual([
      'createPet 400',
      'createPet 401',
      'getPet 401',
      'getPet 404',
      'listPets 401',
    ]);
    // The same traffic, as a consumer contract: one interaction per kind, the refused and forced ones left out.
    const pact = mock.pact({ consumer: 'web', provider: 'petstore' });
    expect(pact.interactions.map((i) => i.description)).toEqual([
      'listPets with limit',
      'getPet for an existing id',
      'createPet without status',
    ]);
    expect(pact.metadata.petstoreMock.skipped.map((k) => k.kind)).toEqual([
      'listPets 400: limit must be an integer from 1 to 100',
    ]);
    expect(JSON.stringify(pact)).not.toContain(KEY);
  });
});
