// vitest's globalSetup: starts the mock before any test file, hands its URL to them, and at the end
// gates the whole run on what the client's tests exercised. A throw here would only be logged (vitest
// exits 0), so the gate is enforceCoverage: it names what is missing and sets the exit code to 1.
import { enforceCoverage, startMockServer } from 'petstore-toolkit/mock';

export default async function setup({ provide }) {
  const petstore = await startMockServer({ port: 0, apiKeys: ['test-key'] });
  provide('petstoreUrl', petstore.url);
  return async () => {
    await petstore.close();
    enforceCoverage(petstore, { responses: ['listPets 200', 'getPet 404'] });
  };
}
