// The socketless entries from CommonJS (msw 3 is ES-only: Node loads it through require(esm)).
const { createMswHandlers } = require('petstore-toolkit/msw');
const { createMockDispatcher } = require('petstore-toolkit/undici');

(async () => {
  const petstore = createMswHandlers({ baseUrl: 'https://api.example.test/v1', count: 3 });
  const dispatcher = createMockDispatcher({ count: 3, apiKeys: ['cjs-key'] });
  const response = await fetch(`${dispatcher.url}/pets`, { dispatcher, headers: { authorization: 'Bearer cjs-key' } });
  const pets = await response.json();
  console.log(
    JSON.stringify({
      handlers: petstore.handlers.length,
      size: petstore.pets.size,
      status: response.status,
      pets: pets.length,
      exports: Object.fromEntries(
        ['mock', 'mock/core', 'msw', 'undici', 'conformance'].map((entry) => [
          entry,
          Object.keys(require(`petstore-toolkit/${entry}`))
            .filter((name) => name !== '__esModule')
            .sort(),
        ]),
      ),
    }),
  );
})();
