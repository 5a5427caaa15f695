/**
 * Issue 47's scenario as a user runs it: one mock started in vitest's globalSetup, three test files of six
 * tests each, three workers (examples/sessions/vitest). With the recipe's fixture, every test in a session of its
 * own, all 18 pass and the one coverage gate sees every session's requests. With the same tests on the shared
 * mock, reset before each (test/fixtures/sessions), the files see each other's creates, resets and forced 503s,
 * and tests fail: the proof that these tests can fail.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh project holding the example, with the package (this checkout's build) and the runner installed. */
function project(runner: 'vitest' | 'jest' = 'vitest'): string {
  const dir = mkdtempSync(join(tmpdir(), `sessions-${runner}-`));
  made.push(dir);
  cpSync(join(ROOT, 'examples', 'sessions', runner), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'petstore-toolkit'));
  symlinkSync(join(ROOT, 'node_modules', runner), join(dir, 'node_modules', runner));
  return dir;
}

interface Outcome {
  code: number | null;
  output: string;
  passed: number;
  failed: number;
  messages: string[];
}

async function run(dir: string): Promise<Outcome> {
  const result = join(dir, 'result.json');
  const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [process.execPath, vitest, 'run', '--root', dir, '--reporter=json', `--outputFile=${result}`];
  const done = await runProcess(args, {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
    timeoutMs: 170_000,
  });
  const json = JSON.parse(readFileSync(result, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults: { assertionResults: { failureMessages: string[] }[] }[];
  };
  return {
    code: done.code,
    output: done.stdout + done.stderr,
    passed: json.numPassedTests,
    failed: json.numFailedTests,
    messages: json.testResults.flatMap((file) => file.assertionResults.flatMap((test) => test.failureMessages)),
  };
}

it('passes all 18 tests of three files on three workers, each test in its own session, and gates coverage once', async () => {
  const outcome = await run(project());
  expect(outcome.messages).toEqual([]);
  expect(outcome.passed).toBe(18);
  expect(outcome.code, outcome.output).toBe(0);
  // The gate's responses were received in sessions only: the mock's coverage added them up.
  expect(outcome.output).not.toContain('petstore coverage gate');
}, 180_000);

it('fails the same tests without sessions: the files see each other through the one mock', async () => {
  const dir = project();
  cpSync(
    join(ROOT, 'test', 'fixtures', 'sessions', 'vitest', 'petstore.fixture.mjs'),
    join(dir, 'petstore.fixture.mjs'),
  );
  const outcome = await run(dir);
  expect(outcome.code, outcome.output).toBe(1);
  expect(outcome.failed).toBeGreaterThan(0);
  expect(outcome.passed + outcome.failed).toBe(18);
  // Each failure is one the issue saw: another file's pets, reset or forced status, never a crash of the run.
  for (const message of outcome.messages) expect(message).toMatch(/AssertionError|expected|503|: [0-9]{3} /);
}, 180_000);

it("passes Jest's recipe too: two files on two workers, a session per test, one gate in globalTeardown", async () => {
  const dir = project('jest');
  const jest = join(dir, 'node_modules', 'jest', 'bin', 'jest.js');
  const done = await runProcess([process.execPath, jest, '--rootDir', dir, '--ci', '--json'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
    timeoutMs: 170_000,
  });
  const json = JSON.parse(done.stdout) as { numPassedTests: number; numFailedTests: number };
  expect(json).toMatchObject({ numPassedTests: 6, numFailedTests: 0 });
  expect(done.code, done.stderr).toBe(0);
  expect(done.stderr).not.toContain('petstore coverage gate');
}, 200_000);
