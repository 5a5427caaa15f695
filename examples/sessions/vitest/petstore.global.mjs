// vitest's globalSetup: one mock for every test file, its URL handed to them. At the end, one coverage gate
// sees every session's requests: the mock's coverage adds up all of them, ended sessions included.
import { enforceCoverage, startMockServer } from 'petstore-toolkit/mock';

export default async function setup({ provide }) {
  const petstore = await startMockServer({ port: 0, seed: 1, count: 10, apiKeys: ['test-key'] });
  provide('petstoreUrl', petstore.url);
  return async () => {
    await petstore.close();
    enforceCoverage(petstore, { responses: ['listPets 200', 'createPet 201', 'getPet 200', 'getPet 404'] });
  };
}
