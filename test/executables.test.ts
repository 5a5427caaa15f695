/**
 * The single-file executables (scripts/build-executables.mjs), built here into a temporary folder and run as a
 * team without Node runs them: on a PATH with no `node` and an otherwise empty environment. Each prints its
 * version; the mock serves; the suite passes against the mock executable, and says it could not run (exit 2)
 * when nothing answers. Their size and start time are printed for the notes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess, spawnProcess, stopAllProcesses } from './support/processes.ts';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = mkdtempSync(join(tmpdir(), 'petstore-executables-'));
const EMPTY_PATH = join(work, 'empty-path');
/** `env -i PATH=<an empty folder>`: no node, no npm, nothing of this machine's environment. */
const BARE = { PATH: EMPTY_PATH };
const exe = (name: string) => join(work, 'out', name);

beforeAll(async () => {
  mkdirSync(EMPTY_PATH);
  const run = await runProcess([process.execPath, 'scripts/build-executables.mjs', '--out', join(work, 'out')], {
    timeoutMs: 400_000,
  });
  if (run.code !== 0) throw new Error(`build-executables failed:\n${run.stdout}\n${run.stderr}`);
}, 420_000);

afterEach(stopAllProcesses);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('single-file executables on a PATH without node', () => {
  it('the PATH really holds no node (the control)', async () => {
    const run = await runProcess(['node', '--version'], { env: BARE, cwd: work });
    expect(run.stderr).toMatch(/spawn error: spawn node ENOENT/);
  });

  it.each(['petstore-mock', 'petstore-conformance'])('%s --version prints the package version', async (name) => {
    const run = await runProcess([exe(name), '--version'], { env: BARE, cwd: work });
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const runs: number[] = [];
    for (let i = 0; i < 3; i++)
      runs.push((await runProcess([exe(name), '--version'], { env: BARE, cwd: work })).durationMs);
    const megabytes = (statSync(exe(name)).size / 2 ** 20).toFixed(1);
    console.log(`${name}: ${megabytes} MiB, --version in ${Math.min(...runs).toFixed(0)} ms (least of 3)`);
  });

  it('the mock serves, and the suite passes against it', async () => {
    const mock = spawnProcess([exe('petstore-mock'), '--port', '0', '--quiet'], { env: BARE, cwd: work });
    const [, url] = await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n/, 30_000);
    const res = await fetch(`${url}/pets?limit=5`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(5);
    const suite = await runProcess(
      [exe('petstore-conformance'), '--base-url', url!, '--api-key', 'petstore-dev-key', '--reporter', 'json'],
      { env: BARE, cwd: work, timeoutMs: 120_000 },
    );
    const report = JSON.parse(suite.stdout) as { summary: { passed: number; failed: number } };
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(50);
    expect(suite.code).toBe(0);
  }, 180_000);

  it('the suite says it could not run, exit 2, when nothing answers', async () => {
    const suite = await runProcess([exe('petstore-conformance'), '--base-url', 'http://127.0.0.1:9/v1'], {
      env: BARE,
      cwd: work,
      timeoutMs: 60_000,
    });
    expect(suite.stderr).not.toMatch(/\n\s+at /);
    expect(suite.code).toBe(2);
  });
});
