// A CommonJS consumer: the same through require.
const { startMockServer } = require('petstore-toolkit/mock');
const { runConformance } = require('petstore-toolkit/conformance');
const { getValidator } = require('petstore-toolkit/spec');

(async () => {
  const mock = await startMockServer({ count: 3, apiKeys: ['cjs-key'] });
  try {
    const response = await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer cjs-key' } });
    const pets = await response.json();
    const report = await runConformance({ baseUrl: mock.url, apiKey: 'cjs-key', only: ['listPets'] });
    console.log(
      JSON.stringify({
        status: response.status,
        pets: pets.length,
        valid: getValidator('Pets')(pets),
        failed: report.summary.failed,
        passed: report.summary.passed,
      }),
    );
  } finally {
    await mock.close();
  }
})();
