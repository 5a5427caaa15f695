/**
 * Any base path: the three adapters, given `/v1` and `/api/v1`, write every
 * URL (`Location`, `Link`) under it, serve the controls beside it, and the
 * URLs they write lead back to the mock.
 */
import { setupServer } from 'msw/node';
import { fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { PetstoreMock } from '../mock/core/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';

const KEY = 'base-path-key';
const auth = { authorization: `Bearer ${KEY}` };

interface Reach {
  mock: PetstoreMock;
  fetch(url: string, init?: RequestInit): Promise<Response>;
  stop?(): void;
}

const ADAPTERS: [string, (path: string) => Promise<Reach>][] = [
  [
    'startMockServer',
    async (path) => ({ mock: await startMockServer({ apiKeys: [KEY], count: 3, basePath: path }), fetch }),
  ],
  [
    'createMockDispatcher',
    async (path) => {
      const dispatcher = createMockDispatcher({ apiKeys: [KEY], count: 3, baseUrl: `http://petstore.test${path}` });
      const via = (url: string, init?: RequestInit) =>
        undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
      return { mock: dispatcher, fetch: via };
    },
  ],
  [
    'createMswHandlers',
    async (path) => {
      const petstore = createMswHandlers({ apiKeys: [KEY], count: 3, baseUrl: `https://api.example.test${path}` });
      const server = setupServer(...petstore.handlers);
      server.listen();
      return { mock: petstore, fetch, stop: () => server.close() };
    },
  ],
];

let reach: Reach | undefined;
afterEach(async () => {
  await reach?.mock.close();
  reach?.stop?.();
  reach = undefined;
});

describe.each(ADAPTERS)('%s', (_name, open) => {
  it.each(['/v1', '/api/v1'])(
    'under %s writes Location and Link under it, and following them reaches the mock',
    async (path) => {
      reach = await open(path);
      const { mock } = reach;
      expect(new URL(mock.url).pathname).toBe(path);
      const created = await reach.fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      expect(location).toBe(`${path}/pets/4`);
      const followed = await reach.fetch(new URL(location, mock.url).href, { headers: auth });
      expect(followed.status).toBe(200);
      expect(await followed.json()).toEqual({ id: 4, name: 'Rex', categoryId: 2 });

      const link = followed.headers.get('link')!;
      expect(link).toBe(`<${path}/pets>; rel="successor-version"`);
      const successor = await reach.fetch(new URL(/<([^>]+)>/.exec(link)![1]!, mock.url).href, { headers: auth });
      expect(successor.status).toBe(200);
      expect(await successor.json()).toHaveLength(4);

      // Journal paths and scenario paths stay below the mount, so the same test code runs under any base path.
      expect(mock.requests({ method: 'POST', path: '/v1/pets' })).toHaveLength(1);
      // The controls sit beside /v1, under the same prefix.
      const profile = await reach.fetch(new URL(`${path.slice(0, -3)}/__control/openapi.json`, mock.url).href);
      expect(((await profile.json()) as { servers: { url: string }[] }).servers.map((s) => s.url)).toEqual([path]);
      const reset = await reach.fetch(new URL(`${path.slice(0, -3)}/__control/reset`, mock.url).href, {
        method: 'POST',
      });
      expect(await reset.json()).toEqual({ reset: true, pets: 3 });
    },
  );
});

describe.each(ADAPTERS.slice(0, 2))('%s under /api/v1', (_name, open) => {
  it('does not serve the API at /v1 as well (a 404 route_not_found)', async () => {
    reach = await open('/api/v1');
    const outside = await reach.fetch(new URL('/v1/pets', reach.mock.url).href, { headers: auth });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ code: 'route_not_found' });
  });
});
