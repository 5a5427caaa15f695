// vitest, as a client developer writes it (globals on, so the file needs no import of vitest).
import { startMockServer } from 'petstore-toolkit/mock';

let petstore;
beforeAll(async () => {
  petstore = await startMockServer({ seed: 1, count: 10, apiKeys: ['vitest-key'] });
});
beforeEach(() => petstore.reset());
afterAll(() => petstore.close());

it('adds a pet', async () => {
  const response = await fetch(`${petstore.url}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer vitest-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
  });
  expect(response.status).toBe(201);
  expect(petstore.pets.get(11)?.name).toBe('Rex');
});

it('starts each test from the seeded pets', () => {
  expect(petstore.pets.size).toBe(10);
});
