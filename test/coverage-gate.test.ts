/**
 * The suite-wide client-coverage gate as a user sets it up (examples/coverage-gate): one mock for the whole run,
 * started by vitest's globalSetup or Jest's globalSetup, and enforceCoverage at the end. The run exits 0 when every
 * required response was received and nothing refused was sent, and 1 otherwise, naming what is missing; a throw
 * in vitest's teardown would have been logged with exit 0.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh project holding the example's folder, with the package (this checkout's build) and the runner installed. */
function project(runner: 'vitest' | 'jest'): string {
  const dir = mkdtempSync(join(tmpdir(), `coverage-gate-${runner}-`));
  made.push(dir);
  cpSync(join(ROOT, 'examples', 'coverage-gate', runner), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'petstore-toolkit'));
  symlinkSync(join(ROOT, 'node_modules', runner), join(dir, 'node_modules', runner));
  return dir;
}

const RUN = {
  vitest: (dir: string, only: string[]) => [
    process.execPath,
    join(dir, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--root',
    dir,
    ...only,
  ],
  jest: (dir: string, only: string[]) => [
    process.execPath,
    join(dir, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--rootDir',
    dir,
    '--ci',
    ...only,
  ],
};

/** A test file that sends a request the contract refuses, unforced (test/fixtures/coverage-gate). */
const SLOPPY = { vitest: 'sloppy.test.mjs', jest: 'sloppy.test.js' } as const;

describe.each(['vitest', 'jest'] as const)('the coverage gate in %s', (runner) => {
  it('passes the run when every required response was received, and fails it (exit 1, named) when one was not', async () => {
    const dir = project(runner);
    const whole = await runProcess(RUN[runner](dir, []), { cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    expect(whole.stderr).not.toContain('petstore coverage gate');

    const part = await runProcess(RUN[runner](dir, ['listing']), {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
    });
    expect(part.code, part.stdout + part.stderr).toBe(1);
    expect(part.stderr).toContain("petstore coverage gate: the client's tests never exercised getPet 404");
  }, 60_000);

  it('fails the run when a test sent a request the contract refuses', async () => {
    const dir = project(runner);
    const file = SLOPPY[runner];
    cpSync(join(ROOT, 'test', 'fixtures', 'coverage-gate', runner, file), join(dir, file));
    const run = await runProcess(RUN[runner](dir, []), { cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain('petstore coverage gate: the client sent requests the contract refuses');
    expect(run.stderr).toContain('GET /v1/pets?limit=0 answered 400');
  }, 60_000);
});
