// The client's tests against the mock; at the end, what they exercised of the contract:
// a table in the terminal, and Markdown for the CI summary (coverage.md, or $GITHUB_STEP_SUMMARY).
import { appendFileSync, writeFileSync } from 'node:fs';
import { expectCoverage, expectNoInvalidRequests, formatCoverage, startMockServer } from 'petstore-toolkit/mock';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { petstoreClient } from './client.mjs';

let petstore;
let client;
beforeAll(async () => {
  petstore = await startMockServer({ port: 0 });
  client = petstoreClient(petstore.url, petstore.apiKeys[0]);
});
beforeEach(() => petstore.reset()); // coverage spans the whole run: reset() leaves it
afterAll(async () => {
  process.stdout.write(formatCoverage(petstore));
  const markdown = formatCoverage(petstore, 'markdown');
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
  else writeFileSync(new URL('coverage.md', import.meta.url), markdown);
  await petstore.close();
});

it('lists available pets', async () => {
  const pets = await client.available(5);
  expect(pets.every((p) => p.status === 'available')).toBe(true);
});

it('adds a pet and reads it back', async () => {
  const added = await client.add({ name: 'Rex', categoryId: 2 });
  expect(await client.get(added.id)).toEqual(added);
});

it('shows an error when a pet is missing', async () => {
  await expect(client.get(999999)).rejects.toThrow(/^404/);
});

it('exercised what the app relies on, and sent nothing the contract refuses', () => {
  expectCoverage(petstore, { responses: ['listPets 200', 'createPet 201', 'getPet 404'] });
  expectNoInvalidRequests(petstore);
});
