/**
 * `--start CMD` as a CI script runs it: the suite starts the server, refuses a stale one already on the port, says
 * why a server that dies at start died (its last lines, secrets hidden), and leaves no process of the command's
 * group behind after exit 0, 1, 2 and SIGINT. The start command writes its process group id (the shell's pid) and
 * leaves a `sleep` behind it in the group: only stopping the whole group, not the one child, ends it.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { ROOT, runProcess, spawnProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stale: MockServer | undefined;
afterEach(async () => {
  await stale?.close();
  stale = undefined;
  await stopAllProcesses();
});

/** A port nothing listens on (taken, then given back): --start needs the port before the server exists. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The processes of group `pgid` still running (zombies, which a container's init may never reap, are not). */
function liveInGroup(pgid: number): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z'
          ? [`${pid} ${stat.slice(0, stat.lastIndexOf(')') + 1)}`]
          : [];
      } catch {
        return [];
      }
    });
}

/** A start command: writes its group id to `file`, leaves a sleep in the group, then runs the built mock. */
function startCommand(file: string, port: number, mockArgs = ''): string {
  return `echo $$ > ${file}; sleep 300 & exec ${process.execPath} ${join(ROOT, 'dist/mock/node/cli.js')} --port ${port} --quiet ${mockArgs}`;
}

const cliArgs = (port: number, ...rest: string[]) => [
  ...tsxEntry('conformance/cli.ts'),
  '--base-url',
  `http://127.0.0.1:${port}/v1`,
  '--api-key',
  'petstore-dev-key',
  '--only',
  'getPet',
  ...rest,
];

function env(): NodeJS.ProcessEnv {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...rest } = process.env;
  return { ...rest, NO_COLOR: '1' };
}

describe('--start: the server under test started and stopped by the suite', () => {
  it.each([
    [0, '', /\b0 failed\b/],
    // Past getPet's sunset the mock answers it 404: the getPet cases fail.
    [1, '--as-of 2031-01-01', /[1-9]\d* failed/],
    // The mock accepts another key: every request is refused, the run cannot test the server.
    [2, '--api-key another-key', /the API key was rejected/],
  ])(
    'exit %i: the run ends and no process of the started group is left',
    async (code, mockArgs, said) => {
      const port = await freePort();
      const pgidFile = join(dir, `pgid-${code}`);
      const run = await runProcess(cliArgs(port, '--start', startCommand(pgidFile, port, mockArgs)), {
        env: env(),
        timeoutMs: 120_000,
      });
      expect(`${run.stdout}${run.stderr}`).toMatch(said);
      expect(run.code).toBe(code);
      const pgid = Number(readFileSync(pgidFile, 'utf8'));
      expect(pgid).toBeGreaterThan(1);
      expect(liveInGroup(pgid)).toEqual([]);
    },
    150_000,
  );

  it('SIGINT mid-run: exit 2, one line, and the whole group stopped', async () => {
    const port = await freePort();
    const pgidFile = join(dir, 'pgid-sigint');
    // Each answer takes 2 s: the run is still going when the signal comes.
    const cli = spawnProcess(cliArgs(port, '--start', startCommand(pgidFile, port, '--latency 2000')), { env: env() });
    const deadline = Date.now() + 60_000;
    // The file exists before the server's shell has written its group into it: wait for the number itself (an empty
    // read is group 0, which holds the kernel's threads and init, and no process of the run).
    const written = () => (existsSync(pgidFile) ? Number(readFileSync(pgidFile, 'utf8')) : 0);
    while (!(written() > 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pgid = written();
    expect(pgid).toBeGreaterThan(1);
    // Up: the mock answers; the run has started its first requests.
    while (liveInGroup(pgid).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 3000));
    expect(liveInGroup(pgid).length).toBeGreaterThan(0);
    cli.child.kill('SIGINT');
    const exit = await cli.exited;
    expect(exit.code).toBe(2);
    expect(cli.stderr()).toMatch(/^petstore-conformance: SIGINT: the run stops here, and the --start server with it\n/);
    expect(liveInGroup(pgid)).toEqual([]);
  }, 120_000);

  it('refuses to start when something already answers at the base URL: exit 2, one line, nothing started', async () => {
    stale = await startMockServer({ port: 0 });
    const port = Number(new URL(stale.url).port);
    const marker = join(dir, 'stale-started');
    const run = await runProcess(cliArgs(port, '--start', `touch ${marker}; sleep 300`), { env: env() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `petstore-conformance: something already answers at http://127.0.0.1:${port}/v1: --start would judge it instead of the server it starts (a stale server from an earlier run?); stop it, or drop --start to test it\n`,
    );
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('a server that dies at start: exit 2 with its last lines, the key hidden in them', async () => {
    const port = await freePort();
    const key = 'start-secret-key-4711';
    const command = `echo "listening with key ${key}"; echo "Error: EADDRINUSE: address already in use" >&2; exit 3`;
    const run = await runProcess(
      [
        ...tsxEntry('conformance/cli.ts'),
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--api-key',
        key,
        '--start',
        command,
      ],
      { env: env() },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `petstore-conformance: the --start command exited with code 3 before anything answered at http://127.0.0.1:${port}/v1; its last lines:\n  listening with key [REDACTED]\n  Error: EADDRINUSE: address already in use\n`,
    );
    expect(run.stderr).not.toContain(key);
  }, 60_000);
});
