// MSW in Node with the installed msw (3 here: Node 22.12 or later): the global fetch answered by the mock's handlers.
import { setupServer } from 'msw/node';
import { createMswHandlers } from 'petstore-toolkit/msw';

const petstore = createMswHandlers({ baseUrl: 'https://api.example.test/v1', count: 3, apiKeys: ['msw-key'] });
const server = setupServer(...petstore.handlers);
server.listen();
try {
  const auth = { authorization: 'Bearer msw-key' };
  const list = await fetch(`${petstore.url}/pets`, { headers: auth });
  const pets = await list.json();
  const created = await fetch(`${petstore.url}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
  });
  const refused = await fetch(`${petstore.url}/pets`, { headers: { authorization: 'Bearer wrong' } });
  console.log(
    JSON.stringify({
      pets: pets.length,
      created: created.status,
      location: created.headers.get('location'),
      stored: petstore.pets.get(4)?.name,
      refused: refused.status,
      code: (await refused.json()).code,
    }),
  );
} finally {
  server.close();
}
