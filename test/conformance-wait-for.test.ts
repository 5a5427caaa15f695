/**
 * `--wait-for` as CI uses it: the suite started before the server it gates. It waits until the base URL answers
 * anything (any status counts as up), polling with a backoff, and runs; a server that never answers is exit 2
 * within the bound, with one line naming what never answered.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { runProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

/** A port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

function cli(args: string[]) {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...env } = process.env;
  return runProcess([...tsxEntry('conformance/cli.ts'), ...args], { env: { ...env, NO_COLOR: '1' } });
}

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await stopAllProcesses();
});

it('waits for a server that starts listening after a delay, then runs and passes', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1`;
  const late = new Promise<void>((resolve) =>
    setTimeout(async () => {
      mock = await startMockServer({ port });
      resolve();
    }, 2500),
  );
  const run = await cli(['--base-url', url, '--api-key', 'petstore-dev-key', '--wait-for', '60s', '--only', 'getPet']);
  await late;
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(/\b0 failed\b/);
  expect(run.code).toBe(0);
  // Started before the server: without the wait, the first request would have found nothing listening.
  const without = await runConformance({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, apiKey: 'k' }).catch(
    (e: { code: string }) => e.code,
  );
  expect(without).toBe('PETSTORE_CONFORMANCE_UNREACHABLE');
}, 60_000);

it('gives up on a server that never answers within the bound: exit 2, one line naming what never answered', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1`;
  // What starting the CLI costs on this machine now (a loaded one takes seconds): the bound is judged beyond it.
  const startedVersion = performance.now();
  await cli(['--version']);
  const startupMs = performance.now() - startedVersion;
  const started = performance.now();
  const run = await cli(['--base-url', url, '--api-key', 'k', '--wait-for', '1500ms']);
  const tookMs = performance.now() - started;
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    new RegExp(
      `^petstore-conformance: http://127\\.0\\.0\\.1:${port}/v1 never answered: GET http://127\\.0\\.0\\.1:${port}/v1/pets\\?limit=1 got no answer in 1\\.5 s \\(--wait-for, waitForMs; \\d+ tries, the last: ECONNREFUSED`,
    ),
  );
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(tookMs).toBeGreaterThan(1500);
  // Gave up at the bound, not at some later time: well under ten bounds beyond the CLI's own start.
  expect(tookMs - startupMs).toBeLessThan(15_000);
  // The same from code, with the documented code; tries back off (far fewer than one per 10 ms).
  const error = await runConformance({ baseUrl: url, apiKey: 'k', waitForMs: 1000 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ConformanceError', code: 'PETSTORE_CONFORMANCE_NOT_UP' });
  const tries = Number(/(\d+) tries/.exec((error as Error).message)?.[1]);
  expect(tries).toBeGreaterThan(2);
  expect(tries).toBeLessThan(12);
}, 60_000);
