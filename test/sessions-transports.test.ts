/**
 * The same session test on the three ways to reach the mock: a port, MSW's setupServer in Node, and the undici
 * dispatcher, each mounted under `/api` so that the session's segment has to go between the prefix and `/v1`.
 * Two sessions and the mock itself: what one creates or forces, the others never see; a session made over the
 * control endpoint is reached at the URL it answers; and the whole conformance suite, strict, passes in a session.
 */
import { setupServer } from 'msw/node';
import { fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { type PetstoreMock, startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';
import { createFetchDispatcher } from './support/fetch-dispatcher.ts';

const KEY = 'session-key';
const MOCK = { seed: 7, count: 20, apiKeys: [KEY] };
const AUTH = { authorization: `Bearer ${KEY}` };

interface Reach {
  mock: PetstoreMock;
  dispatcher?: Parameters<typeof runConformance>[0]['dispatcher'];
  fetch(url: string, init?: RequestInit): Promise<Response>;
  stop?(): void;
}

const TRANSPORTS: [string, () => Promise<Reach>][] = [
  [
    'the node server (a port)',
    async () => ({ mock: await startMockServer({ ...MOCK, port: 0, basePath: '/api/v1' }), fetch }),
  ],
  [
    'MSW setupServer in Node',
    async () => {
      const petstore = createMswHandlers({ ...MOCK, baseUrl: 'https://api.example.test/api/v1' });
      const server = setupServer(...petstore.handlers);
      server.listen();
      return { mock: petstore, dispatcher: createFetchDispatcher(), fetch, stop: () => server.close() };
    },
  ],
  [
    'the undici dispatcher',
    async () => {
      const dispatcher = createMockDispatcher({ ...MOCK, baseUrl: 'http://petstore.test/api/v1' });
      const fetchWith = (url: string, init: RequestInit = {}) =>
        undiciFetch(url, {
          ...(init as Parameters<typeof undiciFetch>[1]),
          dispatcher,
        }) as unknown as Promise<Response>;
      return { mock: dispatcher, dispatcher, fetch: fetchWith };
    },
  ],
];

let reach: Reach | undefined;
afterEach(async () => {
  await reach?.mock.close();
  reach?.stop?.();
  reach = undefined;
});

const names = async (response: Response) => ((await response.json()) as { name: string }[]).map((p) => p.name);

describe.each(TRANSPORTS)('sessions through %s', (_name, open) => {
  it('keeps two sessions and the mock apart, by URL and by header, with the session in Location', async () => {
    reach = await open();
    const { mock, fetch: send } = reach;
    await mock.ready;
    const root = mock.url.slice(0, -'/api/v1'.length);
    const made = await send(`${root}/api/__control/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"left"}',
    });
    expect(made.status).toBe(201);
    const left = (await made.json()) as { url: string };
    expect(left.url).toBe(`${root}/api/sessions/left/v1`);
    const right = mock.session('right');
    expect(right.url).toBe(`${root}/api/sessions/right/v1`);

    const created = await send(`${left.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'only-left', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/sessions/left/v1/pets/21');
    right.scenarios.add({ path: '/v1/pets', status: 503 });

    expect(await names(await send(`${left.url}/pets?limit=100`, { headers: AUTH }))).toContain('only-left');
    expect((await send(`${right.url}/pets`, { headers: AUTH })).status).toBe(503);
    // The header form: the mock's own base URL, the session by name.
    const byHeader = await send(`${mock.url}/pets?limit=100`, { headers: { ...AUTH, 'petstore-session': 'left' } });
    expect(await names(byHeader)).toContain('only-left');
    const outside = await send(`${mock.url}/pets?limit=100`, { headers: AUTH });
    expect(outside.status).toBe(200);
    expect(await names(outside)).not.toContain('only-left');
    expect(mock.pets.size).toBe(20);
    expect(right.pets.size).toBe(20);

    // Ended, a session answers a clear Error, and the other one is as it was.
    expect((await send(`${root}/api/__control/sessions/left`, { method: 'DELETE' })).status).toBe(204);
    const ended = await send(`${left.url}/pets`, { headers: AUTH });
    expect(ended.status).toBe(410);
    expect(await ended.json()).toMatchObject({ code: 'session_ended', status: 410 });
    expect((await send(`${right.url}/pets`, { headers: AUTH })).status).toBe(503);
    expect(mock.coverage().responses.find((r) => r.id === 'createPet 201')?.count).toBe(1);
  });

  it('passes the whole conformance suite, strict, in a session', async () => {
    reach = await open();
    await reach.mock.ready;
    const session = reach.mock.session();
    const report = await runConformance({
      baseUrl: session.url,
      apiKey: KEY,
      strict: true,
      concurrency: 1,
      ...(reach.dispatcher ? { dispatcher: reach.dispatcher } : {}),
    });
    expect(report.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(report.summary.total).toBeGreaterThan(50);
    // The suite's requests were the session's: the mock outside saw none of them.
    expect(reach.mock.requests()).toHaveLength(0);
    expect(session.requests().length).toBeGreaterThan(50);
  }, 120_000);
});
