/**
 * Report files: one that cannot be written (a directory, a symlink) is a line on stderr, the other reports are
 * still written, and the exit code is the run's own; a symlink's target is never overwritten.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';
import { runProcess, tsxEntry } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('refuses a directory and a symlink with a line each, writes the others, and keeps the exit code', async () => {
  const mock = await startMockServer({ port: 0, apiKeys: ['report-files-key'] });
  try {
    const directory = join(dir, 'a-directory');
    mkdirSync(directory);
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'keep me');
    const link = join(dir, 'link.xml');
    symlinkSync(target, link);
    const html = join(dir, 'out', 'report.html');
    writeFileSync(join(dir, 'existing.json'), 'old');
    const run = await runProcess(
      [
        ...tsxEntry('conformance/cli.ts'),
        '--base-url',
        mock.url,
        ...['--reporter', `json=${directory}`, '--reporter', `junit=${link}`, '--reporter', `html=${html}`],
        ...['--reporter', `json=${join(dir, 'existing.json')}`],
      ],
      { env: { ...process.env, PETSTORE_API_KEY: 'report-files-key', NO_COLOR: '1' } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      `petstore-conformance: the json report was not written to ${directory}: it is not a regular file (the exit code is still the run's)`,
      `petstore-conformance: the junit report was not written to ${link}: it is a symbolic link; refusing to write through it (the exit code is still the run's)`,
    ]);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(readFileSync(html, 'utf8')).toContain('<html');
    expect(JSON.parse(readFileSync(join(dir, 'existing.json'), 'utf8')).ok).toBe(true);
    // Written beside the file, then renamed: nothing temporary is left.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  } finally {
    await mock.close();
  }
}, 30_000);
