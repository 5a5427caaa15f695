// Jest with its default configuration (CommonJS runtime, babel-jest).
const { startMockServer } = require('petstore-toolkit/mock');

let petstore;
beforeAll(async () => {
  petstore = await startMockServer({ seed: 1, count: 10, apiKeys: ['jest-key'] });
});
beforeEach(() => petstore.reset());
afterAll(() => petstore.close());

test('adds a pet', async () => {
  const response = await fetch(`${petstore.url}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer jest-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
  });
  expect(response.status).toBe(201);
  expect(petstore.pets.get(11).name).toBe('Rex');
});

test('starts each test from the seeded pets', () => {
  expect(petstore.pets.size).toBe(10);
});
