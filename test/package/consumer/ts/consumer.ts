// A strict TypeScript consumer with module and moduleResolution nodenext: every entry's declarations type-check.
import { type Report, runConformance } from 'petstore-toolkit/conformance';
import { type MockServer, startMockServer } from 'petstore-toolkit/mock';
import { createMock, type PetstoreMock } from 'petstore-toolkit/mock/core';
import { getValidator, type Pet } from 'petstore-toolkit/spec';
import { createMockDispatcher, type MockDispatcher } from 'petstore-toolkit/undici';

export async function check(): Promise<number> {
  const mock: MockServer = await startMockServer({ port: 0, seed: 1, count: 2, apiKeys: ['k'] });
  const report: Report = await runConformance({ baseUrl: mock.url, apiKey: 'k' });
  const controls: PetstoreMock = mock;
  const core = createMock({ count: 1, apiKeys: ['k'] });
  const answer = await core.fetch({ method: 'GET', url: '/v1/pets', headers: { authorization: 'Bearer k' } });
  const pets: Pet[] = JSON.parse(answer.body) as Pet[];
  const valid: boolean = getValidator('Pets')(pets) as boolean;
  await controls.close();
  const dispatcher: MockDispatcher = createMockDispatcher({ apiKeys: ['k'] });
  const inProcess: Report = await runConformance({ baseUrl: dispatcher.url, apiKey: 'k', dispatcher });
  return report.summary.failed + inProcess.summary.failed + (valid ? 0 : 1);
}
