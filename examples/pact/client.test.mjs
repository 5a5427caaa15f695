// The client's tests against the mock; at the end, the consumer contract they relied on, as a Pact file:
// pacts/shop-web-petstore.json (or $PACT_DIR/shop-web-petstore.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from 'petstore-toolkit/mock';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { petstoreClient } from './client.mjs';

let petstore;
let client;
beforeAll(async () => {
  petstore = await startMockServer({ port: 0 });
  client = petstoreClient(petstore.url, petstore.apiKeys[0]);
});
beforeEach(() => petstore.reset()); // the pact spans the whole run: reset() leaves it
afterAll(async () => {
  const dir = process.env.PACT_DIR ?? fileURLToPath(new URL('pacts', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const pact = petstore.pact({ consumer: 'shop-web', provider: 'petstore' });
  writeFileSync(join(dir, 'shop-web-petstore.json'), `${JSON.stringify(pact, null, 2)}\n`);
  await petstore.close();
});

it('lists pets, all of them or a page', async () => {
  expect((await client.list()).length).toBeGreaterThan(0);
  expect(await client.list(3)).toHaveLength(3);
});

it('lists available pets', async () => {
  const pets = await client.available();
  expect(pets.every((p) => p.status === 'available')).toBe(true);
});

it('shows an empty shop', async () => {
  petstore.replacePets([]);
  expect(await client.list()).toEqual([]);
});

it('adds a pet with no status and reads it back', async () => {
  const added = await client.add({ name: 'Rex', categoryId: 2 });
  expect(await client.get(added.id)).toEqual(added);
});

it('shows an error when a pet is missing', async () => {
  await expect(client.get(999999)).rejects.toThrow(/^404/);
});

it('tells the user to sign in without a key', async () => {
  await expect(petstoreClient(petstore.url).list()).rejects.toThrow(/^401/);
});

it('copes with an outage (forced: left out of the pact)', async () => {
  petstore.scenarios.add({ status: 503, times: 1 });
  await expect(client.list(2)).rejects.toThrow(/^503/);
});
