import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuShare, cpuTicks } from './processes.ts';

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

describe("a CPU's share of time from /proc/stat", () => {
  const stat = (steal: number, idle: number) =>
    `cpu  900 0 100 ${idle * 2} 0 0 0 ${steal * 2} 0 0\ncpu0 400 0 50 ${idle} 0 0 0 ${steal} 0 0\ncpu1 500 0 50 ${idle} 0 0 0 ${steal} 0 0\n`;

  it('reads one CPU, or all of them, by name (cpu1 is not cpu10)', () => {
    expect(cpuTicks(1, stat(3, 100))).toEqual({ total: 653, idle: 100, steal: 3 });
    expect(cpuTicks(undefined, stat(3, 100))).toEqual({ total: 1206, idle: 200, steal: 6 });
    expect(cpuTicks(10, stat(3, 100))).toBeUndefined();
    expect(cpuTicks(0, 'cpu0 1 2\n')).toBeUndefined();
  });

  it('splits the time between two readings into steal and busy', () => {
    const before = cpuTicks(1, stat(3, 100))!;
    // 100 ticks later: 10 stolen, 40 idle, so 50 busy (user).
    const after = { total: before.total + 100, idle: before.idle + 40, steal: before.steal + 10 };
    expect(cpuShare(before, after)).toEqual({ steal: 0.1, busy: 0.5 });
    expect(cpuShare(before, before)).toBeUndefined();
  });
});
