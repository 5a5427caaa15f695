const { startMockServer } = require('petstore-toolkit/mock');

module.exports = async () => {
  const petstore = await startMockServer({ port: 0, seed: 1, count: 10, apiKeys: ['test-key'] });
  globalThis.petstore = petstore; // read by the teardown, which runs in this same process
  process.env.PETSTORE_URL = petstore.url; // read by the test files, in Jest's workers
};
