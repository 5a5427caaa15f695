// A plain ES module consumer: the mock and the suite from the installed package.

import { runConformance } from 'petstore-toolkit/conformance';
import { startMockServer } from 'petstore-toolkit/mock';
import { getValidator } from 'petstore-toolkit/spec';

const mock = await startMockServer({ count: 3, apiKeys: ['esm-key'] });
try {
  const response = await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer esm-key' } });
  const pets = await response.json();
  const report = await runConformance({ baseUrl: mock.url, apiKey: 'esm-key', only: ['listPets'] });
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
