// A server team's verification of the pact: `node verify.mjs` checks pacts/shop-web-petstore.json against the
// reference mock (another seed and key, its provider-states endpoint); `node verify.mjs BASE_URL STATES_URL` against
// a provider (BASE_URL is its origin, without /v1: the pacts hold the paths as the client sent them; its key in
// PETSTORE_API_KEY). Exit 0 when every interaction passes.
import { fileURLToPath } from 'node:url';
import { Verifier } from '@pact-foundation/pact';
import { startMockServer } from 'petstore-toolkit/mock';

process.env.PACT_DO_NOT_TRACK ??= 'true';
const pactFile = process.env.PACT_FILE ?? fileURLToPath(new URL('pacts/shop-web-petstore.json', import.meta.url));
let [baseUrl, statesUrl] = process.argv.slice(2);
let key = process.env.PETSTORE_API_KEY;
let mock;
if (baseUrl === undefined) {
  key = 'provider-key-for-the-example';
  mock = await startMockServer({ port: 0, seed: 7, apiKeys: [key] });
  baseUrl = new URL(mock.url).origin;
  statesUrl = `${baseUrl}/__control/provider-states`;
}

const verifier = new Verifier({
  provider: 'petstore',
  providerBaseUrl: baseUrl,
  pactUrls: [pactFile],
  providerStatesSetupUrl: statesUrl,
  logLevel: 'warn',
  // The real key where the pact's request carries one; a request without one stays so: its 401 is the point.
  requestFilter: (req, _res, next) => {
    if (req.headers.authorization !== undefined) req.headers.authorization = `Bearer ${key}`;
    next();
  },
});

const passed = await verifier.verifyProvider().then(
  () => true,
  () => false,
);
await mock?.close();
process.exit(passed ? 0 : 1);
