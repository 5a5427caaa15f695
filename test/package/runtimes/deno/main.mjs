// Deno with npm: specifiers (the packages in ./node_modules, --node-modules-dir=manual):
// the mock on a port and the suite against it, then the suite through the undici
// dispatcher, which also answers undici's own fetch (Deno's global fetch ignores it).
import { runConformance } from 'npm:petstore-toolkit/conformance';
import { startMockServer } from 'npm:petstore-toolkit/mock';
import { createMockDispatcher } from 'npm:petstore-toolkit/undici';
import { fetch } from 'npm:undici';

const mock = await startMockServer({ port: 0 });
const overPort = await runConformance({ baseUrl: mock.url, apiKey: 'petstore-dev-key' });
await mock.close();

const petstore = createMockDispatcher();
const viaDispatcher = await runConformance({ baseUrl: petstore.url, apiKey: 'petstore-dev-key', dispatcher: petstore });
const res = await fetch(`${petstore.url}/pets?limit=2`, {
  dispatcher: petstore,
  headers: { authorization: 'Bearer petstore-dev-key' },
});
console.log(
  JSON.stringify({
    overPort: overPort.summary,
    viaDispatcher: viaDispatcher.summary,
    fetched: [res.status, (await res.json()).length],
  }),
);
