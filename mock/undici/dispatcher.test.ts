import { Readable } from 'node:stream';
import { type Dispatcher, fetch, interceptors, MockAgent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../core/index.ts';
import { createMockDispatcher } from './index.ts';

const KEY = { authorization: 'Bearer k' };

describe('createMockDispatcher', () => {
  it('answers undici.request (the older handler callbacks) from the mock', async () => {
    const petstore = createMockDispatcher({ count: 3, apiKeys: ['k'] });
    const res = await request(`${petstore.url}/pets?limit=2`, { dispatcher: petstore, headers: KEY });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(await res.body.json()).toEqual((await petstore.pets.all()).slice(0, 2));
  });

  it("answers undici's fetch, with a body, and keeps the state", async () => {
    const petstore = createMockDispatcher({ count: 1, apiKeys: ['k'] });
    const res = await fetch(`${petstore.url}/pets`, {
      dispatcher: petstore,
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/v1/pets/2');
    expect((await petstore.pets.get(2))?.name).toBe('Rex');
    petstore.reset();
    expect(petstore.pets.size).toBe(1);
  });

  it("speaks undici 7's controller protocol too (an interceptor wraps the handler in it)", async () => {
    const petstore = createMockDispatcher({ count: 2, apiKeys: ['k'] });
    const composed = petstore.compose(interceptors.retry({ maxRetries: 0 }));
    const res = await request(`${petstore.url}/pets/2`, { dispatcher: composed, headers: KEY });
    expect(res.statusCode).toBe(200);
    expect(((await res.body.json()) as { id: number }).id).toBe(2);
  });

  it('streams a request body and answers one over the limit with 413', async () => {
    const petstore = createMockDispatcher({ apiKeys: ['k'] });
    async function* chunks() {
      for (let i = 0; i <= BODY_LIMIT / 65_536; i++) yield Buffer.alloc(65_536, 0x20);
    }
    const res = await request(`${petstore.url}/pets`, {
      dispatcher: petstore,
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: Readable.from(chunks()),
    });
    expect(res.statusCode).toBe(413);
    expect(((await res.body.json()) as { code: string }).code).toBe('payload_too_large');
  });

  it('gives HEAD the length and no body', async () => {
    const petstore = createMockDispatcher({ apiKeys: ['k'] });
    const res = await request(`${petstore.url}/pets`, { dispatcher: petstore, method: 'HEAD', headers: KEY });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(await res.body.text()).toBe('');
  });

  it('refuses another origin with a stable code, or hands it to the fallback', async () => {
    const petstore = createMockDispatcher();
    await expect(request('http://elsewhere.test/x', { dispatcher: petstore })).rejects.toMatchObject({
      code: 'PETSTORE_MOCK_UNKNOWN_ORIGIN',
    });
    const fallback = new MockAgent();
    fallback.disableNetConnect();
    fallback.get('http://elsewhere.test').intercept({ path: '/x' }).reply(204, '');
    const routed = createMockDispatcher({ fallback: fallback as Dispatcher });
    expect((await request('http://elsewhere.test/x', { dispatcher: routed })).statusCode).toBe(204);
    await fallback.close();
  });

  it('drops the answer when the caller aborts, and refuses requests once closed', async () => {
    const petstore = createMockDispatcher({ apiKeys: ['k'] });
    const controller = new AbortController();
    const pending = request(`${petstore.url}/pets`, { dispatcher: petstore, headers: KEY, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await petstore.close();
    await expect(request(`${petstore.url}/pets`, { dispatcher: petstore })).rejects.toMatchObject({
      code: 'PETSTORE_MOCK_CLOSED',
    });
  });

  it('refuses a base URL that is not absolute', () => {
    expect(() => createMockDispatcher({ baseUrl: '/v1' })).toThrow(/absolute/);
  });
});
