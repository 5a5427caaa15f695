import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../core/index.ts';
import { createMswHandlers } from './index.ts';

const KEY = { authorization: 'Bearer k' };

/** Runs one Fetch request through the handlers the way MSW does, with no interception of the process. */
async function send(petstore: ReturnType<typeof createMswHandlers>, url: string, init: RequestInit = {}) {
  return getResponse(petstore.handlers, new Request(url, init));
}

describe('createMswHandlers', () => {
  it('answers the API under the base URL with the mock, headers and all', async () => {
    const petstore = createMswHandlers({ baseUrl: 'https://api.example.test/v1', count: 3, apiKeys: ['k'] });
    const list = await send(petstore, 'https://api.example.test/v1/pets?limit=2', { headers: KEY });
    expect(list?.status).toBe(200);
    expect(list?.headers.get('content-type')).toBe('application/json');
    expect(await list?.json()).toEqual((await petstore.pets.all()).slice(0, 2));
    const got = await send(petstore, 'https://api.example.test/v1/pets/1', { headers: KEY });
    expect(got?.headers.get('deprecation')).toBe('@0');
    const refused = await send(petstore, 'https://api.example.test/v1/pets');
    expect(refused?.status).toBe(401);
    expect(refused?.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('keeps state across requests and resets it', async () => {
    const petstore = createMswHandlers({ count: 2, apiKeys: ['k'] });
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const headers = { ...KEY, 'content-type': 'application/json' };
    const created = await send(petstore, `${petstore.url}/pets`, { method: 'POST', headers, body });
    expect(created?.status).toBe(201);
    expect(created?.headers.get('location')).toBe('/v1/pets/3');
    expect(petstore.pets.size).toBe(3);
    petstore.reset();
    expect(petstore.pets.size).toBe(2);
  });

  it('mounts under a path prefix: the API at /api/v1, the controls at /api/__control', async () => {
    const petstore = createMswHandlers({ baseUrl: 'https://x.test/api/v1/', count: 1, apiKeys: ['k'] });
    expect(petstore.url).toBe('https://x.test/api/v1');
    expect((await send(petstore, 'https://x.test/api/v1/pets', { headers: KEY }))?.status).toBe(200);
    const health = await send(petstore, 'https://x.test/api/__control/health');
    expect(await health?.json()).toEqual({ status: 'ok' });
    expect(await send(petstore, 'https://x.test/v1/pets', { headers: KEY })).toBeUndefined();
    expect(await send(petstore, 'https://other.test/api/v1/pets', { headers: KEY })).toBeUndefined();
  });

  it('answers a body over the limit with 413, as the server does, and HEAD with no body', async () => {
    const petstore = createMswHandlers({ apiKeys: ['k'] });
    const big = new Uint8Array(BODY_LIMIT + 1).fill(0x20);
    const headers = { ...KEY, 'content-type': 'application/json' };
    const tooLarge = await send(petstore, `${petstore.url}/pets`, { method: 'POST', headers, body: big });
    expect(tooLarge?.status).toBe(413);
    const head = await send(petstore, `${petstore.url}/pets`, { method: 'HEAD', headers: KEY });
    expect(head?.status).toBe(200);
    expect(Number(head?.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head?.text()).toBe('');
  });

  it.each(['not a url', 'https://x.test/v2', 'https://x.test/v1?x=1', 'v1'])('refuses the base URL %j', (baseUrl) => {
    expect(() => createMswHandlers({ baseUrl })).toThrow(expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }));
  });
});
