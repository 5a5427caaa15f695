/** examples/coverage runs as written: its vitest suite passes, prints the coverage table and writes it as Markdown. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

it('the coverage example prints the table and writes coverage.md', async () => {
  const markdown = join(ROOT, 'examples', 'coverage', 'coverage.md');
  rmSync(markdown, { force: true });
  const { GITHUB_STEP_SUMMARY: _s, ...env } = process.env;
  const run = await runProcess(
    [process.execPath, join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', 'examples/coverage'],
    { env: { ...env, NO_COLOR: '1' } },
  );
  expect(run.code, run.stderr + run.stdout).toBe(0);
  expect(run.stdout).toMatch(/^createPet 201 +yes +1 +client 1$/m);
  expect(run.stdout).toMatch(/^getPet a created pet fetched back +1$/m);
  expect(existsSync(markdown)).toBe(true);
  expect(readFileSync(markdown, 'utf8')).toContain('| getPet 404 | yes | 1 | client 1 |');
  rmSync(markdown, { force: true });
}, 60_000);
