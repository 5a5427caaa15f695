/**
 * Playwright with two workers against one app (its API base URL fixed in the page) and one mock
 * (examples/sessions/playwright): each worker's browser context sends its own session's name in Petstore-Session
 * (extraHTTPHeaders); one worker forces 503s in its session while the other, at the same time, always gets the
 * pets. With a fixture that sends no header (test/fixtures/sessions/playwright), the forced 503s reach the other
 * worker and it fails: the proof that the test can fail.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sessions-playwright-'));
  made.push(dir);
  cpSync(join(ROOT, 'examples', 'sessions', 'playwright'), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules', '@playwright'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'petstore-toolkit'));
  symlinkSync(join(ROOT, 'node_modules', '@playwright', 'test'), join(dir, 'node_modules', '@playwright', 'test'));
  return dir;
}

interface Result {
  title: string;
  status: string;
  workerIndex: number;
  start: number;
  end: number;
}

interface Suite {
  specs?: {
    title: string;
    tests: { results: { status: string; workerIndex: number; startTime: string; duration: number }[] }[];
  }[];
  suites?: Suite[];
}

async function run(dir: string): Promise<{ code: number | null; output: string; results: Result[] }> {
  const cli = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const done = await runProcess([process.execPath, cli, 'test', '--reporter=json'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
    timeoutMs: 280_000,
  });
  const report = JSON.parse(done.stdout) as { suites: Suite[] };
  const results: Result[] = [];
  const walk = (suite: Suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const r of test.results) {
          const start = Date.parse(r.startTime);
          results.push({
            title: spec.title,
            status: r.status,
            workerIndex: r.workerIndex,
            start,
            end: start + r.duration,
          });
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return { code: done.code, output: done.stderr, results };
}

it('keeps each worker in its own session by header: one forces 503s, the other, at the same time, never sees one', async () => {
  const { code, output, results } = await run(project());
  expect(results.map((r) => [r.title.slice(0, 20), r.status]).sort(), output).toEqual([
    ['lists the pets every', 'passed'],
    ['shows the error page', 'passed'],
  ]);
  expect(code, output).toBe(0);
  const [a, b] = results as [Result, Result];
  expect(a.workerIndex).not.toBe(b.workerIndex);
  // They overlapped: the calm worker's requests came while the other's 503s were forced.
  expect(a.start < b.end && b.start < a.end).toBe(true);
}, 300_000);

it('fails the calm worker when the contexts send no session header', async () => {
  const dir = project();
  cpSync(
    join(ROOT, 'test', 'fixtures', 'sessions', 'playwright', 'petstore.fixture.mjs'),
    join(dir, 'petstore.fixture.mjs'),
  );
  const { code, results } = await run(dir);
  expect(code).toBe(1);
  expect(results.find((r) => r.title.startsWith('lists the pets'))?.status).toBe('failed');
}, 300_000);
