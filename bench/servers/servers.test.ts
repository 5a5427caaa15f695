import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from 'petstore-toolkit/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchServers } from '../layers.ts';
import {
  captureAnswers,
  createVariantServer,
  type FixedAnswers,
  ROUTE_REQUESTS,
  resetMock,
  VARIANTS,
} from './index.ts';

const KEY = 'bench-test-key';
const ROUTES = ['list', 'sold', 'get', 'create'] as const;
let mock: MockServer;
let answers: FixedAnswers;
const bases: Record<string, string> = {};
const servers: Server[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function ask(base: string, route: (typeof ROUTES)[number], key = KEY, body?: string) {
  const r = ROUTE_REQUESTS[route];
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const sent = body ?? ('body' in r ? r.body : null);
  const response = await fetch(`${base}${r.path}`, { method: r.method, headers, body: sent });
  return {
    status: response.status,
    body: await response.text(),
    headers: [...response.headers.keys()].sort(),
    location: response.headers.get('location'),
  };
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, apiKeys: [KEY] });
  answers = await captureAnswers({ base: mock.url, apiKey: KEY });
  for (const variant of VARIANTS) bases[variant] = await listen(createVariantServer({ variant, apiKey: KEY, answers }));
});

afterAll(async () => {
  for (const server of servers) server.close().closeAllConnections();
  await mock.close();
});

describe("the bench's servers", () => {
  it.each(ROUTES)(
    'answer %s with the status and body bytes the mock gives (after a reset, for POST)',
    async (route) => {
      await resetMock(mock.url);
      const expected = await ask(mock.url, route);
      expect(expected.status).toBeLessThan(300);
      for (const variant of VARIANTS) {
        await resetMock(bases[variant]!);
        const got = await ask(bases[variant]!, route);
        expect({ variant, status: got.status, body: got.body, location: got.location }).toEqual({
          variant,
          status: expected.status,
          body: expected.body,
          location: expected.location,
        });
      }
    },
  );

  it("the minimal server sends no header but Content-Type, Content-Length, Location on POST, getPet's deprecation headers (the mock's, as they are) and what node:http adds", async () => {
    for (const route of ROUTES) {
      const got = await ask(bases.minimal!, route);
      const location = route === 'create' ? ['location'] : [];
      const deprecation = route === 'get' ? ['deprecation', 'link', 'sunset'] : [];
      expect(got.headers).toEqual(
        ['connection', 'content-length', 'content-type', 'date', 'keep-alive', ...location, ...deprecation].sort(),
      );
    }
    const from = async (base: string) => {
      const response = await fetch(`${base}${ROUTE_REQUESTS.get.path}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      await response.arrayBuffer();
      return ['deprecation', 'sunset', 'link'].map((name) => response.headers.get(name));
    };
    const sent = await from(mock.url);
    expect(sent.every((value) => value !== null)).toBe(true);
    expect(await from(bases.minimal!)).toEqual(sent);
  });

  it('the minimal server does the work a POST needs: each pet its own id, kept, and a body the mock refuses is a 400', async () => {
    await resetMock(mock.url);
    await resetMock(bases.minimal!);
    const sent = [
      JSON.stringify({ name: 'Ada', categoryId: 7 }),
      JSON.stringify({ name: 'Bo', categoryId: 2, status: 'sold' }),
      JSON.stringify({ name: 'Cy', categoryId: '2' }),
      JSON.stringify({ name: 5, categoryId: 2 }),
      JSON.stringify({ name: 'Di', categoryId: 2 ** 53 }),
      '{"name":',
    ];
    for (const body of sent) {
      const expected = await ask(mock.url, 'create', KEY, body);
      const got = await ask(bases.minimal!, 'create', KEY, body);
      expect({ body, status: got.status, location: got.location }).toEqual({
        body,
        status: expected.status,
        location: expected.location,
      });
      if (expected.status === 201) expect(got.body).toBe(expected.body);
    }
  });

  it.each(VARIANTS)('%s refuses a wrong key with 401', async (variant) => {
    expect((await ask(bases[variant]!, 'list', 'wrong')).status).toBe(401);
    expect((await ask(bases[variant]!, 'get', `${KEY}x`)).status).toBe(401);
  });

  const resettable = benchServers().flatMap((s) => (s.start.kind === 'bench' && s.resettable ? [s.start.variant] : []));

  it.each(resettable)(
    'the %s server, which the bench resets after each round of POSTs, answers a reset by going back to its seeded pets',
    async (variant) => {
      await resetMock(mock.url);
      const first = await ask(mock.url, 'create');
      await resetMock(bases[variant]!);
      await ask(bases[variant]!, 'create');
      expect((await ask(bases[variant]!, 'create')).body).not.toBe(first.body);
      await resetMock(bases[variant]!);
      expect((await ask(bases[variant]!, 'create')).body).toBe(first.body);
      expect((await ask(bases[variant]!, 'list')).body).toBe((await ask(mock.url, 'list')).body);
    },
  );

  it('the minimal server makes its listings again after its own write, as the mock answers them', async () => {
    await resetMock(mock.url);
    await resetMock(bases.minimal!);
    for (const base of [mock.url, bases.minimal!]) await ask(base, 'sold');
    const sold = JSON.stringify({ name: 'Sol', categoryId: 1, status: 'sold' });
    const [before, after] = [await ask(mock.url, 'sold'), await ask(mock.url, 'create', KEY, sold)];
    expect(after.status).toBe(201);
    expect((await ask(bases.minimal!, 'create', KEY, sold)).body).toBe(after.body);
    const expected = await ask(mock.url, 'sold');
    expect(expected.body).not.toBe(before.body);
    expect((await ask(bases.minimal!, 'sold')).body).toBe(expected.body);
    await resetMock(bases.minimal!);
    expect((await ask(bases.minimal!, 'sold')).body).toBe(before.body);
  });

  it("the minimal server makes again only the listings a new pet enters, and each stays the mock's", async () => {
    // Three pets, so that the list (limit 20) fills only after 17 writes and the sold listing takes sold pets only.
    const small = await startMockServer({ port: 0, apiKeys: [KEY], count: 3 });
    try {
      const base = await listen(
        createVariantServer({
          variant: 'minimal',
          apiKey: KEY,
          answers: await captureAnswers({ base: small.url, apiKey: KEY }),
        }),
      );
      await resetMock(small.url);
      const statuses = ['available', 'sold', 'pending', undefined];
      for (let n = 0; n < 30; n++) {
        const body = JSON.stringify({ name: `P${n}`, categoryId: 1, status: statuses[n % statuses.length] });
        expect((await ask(base, 'create', KEY, body)).body).toBe((await ask(small.url, 'create', KEY, body)).body);
        for (const route of ['list', 'sold'] as const)
          expect({ n, route, body: (await ask(base, route)).body }).toEqual({
            n,
            route,
            body: (await ask(small.url, route)).body,
          });
      }
    } finally {
      await small.close();
    }
  });

  it('a reset puts the mock back to its seeded pets, so every round of POSTs starts from the same store', async () => {
    await resetMock(mock.url);
    await ask(mock.url, 'create');
    expect(mock.pets.size).toBe(51);
    await resetMock(mock.url);
    expect(mock.pets.size).toBe(50);
  });
});
