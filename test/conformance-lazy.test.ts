/**
 * The suite loads its generator (fast-check and the arbitraries) only when generated cases are asked for: the
 * import, a fixed run and the bin never load it. Built dist/ (as installed), under a module hook that logs loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type Spawned, spawnProcess } from './support/processes.ts';

const KEY = 'lazy-test-key';
const LOG_LOADS = ['--import', './test/support/log-loads.mjs'];

function script(generate: number): string {
  return `
const { createMockDispatcher } = await import('petstore-toolkit/undici');
const petstore = createMockDispatcher({ apiKeys: ['${KEY}'] });
const { runConformance } = await import('petstore-toolkit/conformance');
process._rawDebug('imported');
const report = await runConformance({ baseUrl: petstore.url, dispatcher: petstore, apiKey: '${KEY}', generate: ${generate} });
process._rawDebug('ran ' + report.ok + ' ' + report.cases.length);
await petstore.close();`;
}

async function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const { code, stderr } = await runProcess([process.execPath, ...LOG_LOADS, ...args]);
  return { code, stderr };
}

describe('the generator is loaded only for generated cases', () => {
  it('importing the suite and a fixed run load no fast-check; a run with generate does', async () => {
    const fixed = await run(['--input-type=module', '-e', script(0)]);
    expect(fixed.stderr).toMatch(/imported\n(.*\n)*ran true \d+/);
    expect(fixed.stderr).not.toContain('loaded fast-check');
    const generated = await run(['--input-type=module', '-e', script(5)]);
    expect(generated.stderr).toMatch(/ran true \d+/);
    expect(generated.stderr).toContain('loaded fast-check');
  });

  describe('the bin', () => {
    let mock: Spawned;
    let url: string;
    beforeAll(async () => {
      mock = spawnProcess([process.execPath, 'dist/mock/node/cli.js', '--port', '0', '--quiet', '--api-key', KEY]);
      url = (await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n/))[1]!;
    });
    afterAll(async () => {
      await mock.stop();
    });

    it('loads no fast-check for a fixed run, and loads it for --generate', async () => {
      const fixed = await run(['dist/conformance/cli.js', '--base-url', url, '--api-key', KEY]);
      expect(fixed.code).toBe(0);
      expect(fixed.stderr).not.toContain('loaded fast-check');
      const generated = await run(['dist/conformance/cli.js', '--base-url', url, '--api-key', KEY, '--generate', '3']);
      expect(generated.code).toBe(0);
      expect(generated.stderr).toContain('loaded fast-check');
    });
  });
});
