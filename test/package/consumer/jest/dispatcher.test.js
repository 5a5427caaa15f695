// The README's Jest example: Node's fetch answered by the undici dispatcher, passed per call (Jest's sandbox has its own globals).
const { createMockDispatcher } = require('petstore-toolkit/undici');

const petstore = createMockDispatcher({ apiKeys: ['test-key'] });
beforeEach(() => petstore.reset());

test('gets a pet through the dispatcher, with no socket', async () => {
  const res = await fetch(`${petstore.url}/pets/1`, {
    dispatcher: petstore,
    headers: { authorization: 'Bearer test-key' },
  });
  expect(res.status).toBe(200);
  expect((await res.json()).id).toBe(1);
});
