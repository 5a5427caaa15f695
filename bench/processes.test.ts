import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'bench-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the bench's signal handling", () => {
  it('finishes its exit handlers when a second signal comes while they run (Ctrl-C reaches the tsx wrapper too)', async () => {
    const done = join(dir, 'done');
    // The bench's handlers, then an exit handler as long as removing a big temporary project (run.ts's removeWork).
    const script = `
      await import(${JSON.stringify(new URL('./processes.ts', import.meta.url).href)});
      process.once('exit', () => {
        const until = Date.now() + 400;
        while (Date.now() < until);
        require('node:fs').writeFileSync(${JSON.stringify(done)}, 'removed');
      });
      console.log('ready');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The second signal lands while the exit handler runs: with a listener removed after the first, it killed it.
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(existsSync(done)).toBe(true);
  }, 20_000);
});
