// The socketless entries from ESM: MSW handlers built, and the undici dispatcher answering Node's own fetch.
import { createMswHandlers } from 'petstore-toolkit/msw';
import { createMockDispatcher } from 'petstore-toolkit/undici';

const petstore = createMswHandlers({ baseUrl: 'https://api.example.test/v1', count: 3 });
const dispatcher = createMockDispatcher({ count: 3, apiKeys: ['esm-key'] });
const response = await fetch(`${dispatcher.url}/pets`, { dispatcher, headers: { authorization: 'Bearer esm-key' } });
const pets = await response.json();
console.log(
  JSON.stringify({
    handlers: petstore.handlers.length,
    size: petstore.pets.size,
    status: response.status,
    pets: pets.length,
    exports: Object.fromEntries(
      await Promise.all(
        ['mock', 'mock/core', 'msw', 'undici', 'conformance'].map(async (entry) => [
          entry,
          Object.keys(await import(`petstore-toolkit/${entry}`)).sort(),
        ]),
      ),
    ),
  }),
);
