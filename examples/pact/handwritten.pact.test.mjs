// A consumer test written by hand with pact-js (its own mock server, not the reference mock) for one interaction.
// The pact it writes, pacts/shop-web-handwritten-petstore.json, verifies against the reference mock through its
// provider-states endpoint: `PACT_FILE=pacts/shop-web-handwritten-petstore.json node verify.mjs`.
import { fileURLToPath } from 'node:url';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { expect, it } from 'vitest';
import { petstoreClient } from './client.mjs';

process.env.PACT_DO_NOT_TRACK ??= 'true';
const { integer, like, regex } = MatchersV3;
const pact = new PactV4({
  consumer: 'shop-web-handwritten',
  provider: 'petstore',
  dir: process.env.PACT_DIR ?? fileURLToPath(new URL('pacts', import.meta.url)),
  logLevel: 'warn',
});

it('reads one pet by its id', () =>
  pact
    .addInteraction()
    .given('a pet with id 7 exists', { id: 7, name: 'Rex', categoryId: 2, status: 'available' })
    .uponReceiving('getPet for pet 7')
    .withRequest('GET', '/v1/pets/7', (request) =>
      request.headers({ Authorization: regex('^Bearer \\S+$', 'Bearer key') }),
    )
    .willRespondWith(200, (response) =>
      response.headers({ 'Content-Type': regex('^application/json', 'application/json') }).jsonBody({
        id: integer(7),
        name: like('Rex'),
        categoryId: integer(2),
        status: regex('^(available|pending|sold)$', 'available'),
      }),
    )
    .executeTest(async (server) => {
      // The client's base URL is the service's, `/v1` included, as it is in production.
      const pet = await petstoreClient(`${server.url}/v1`, 'key').get(7);
      expect(pet).toEqual({ id: 7, name: 'Rex', categoryId: 2, status: 'available' });
    }));
