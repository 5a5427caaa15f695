/**
 * The only process and socket code of prism/: find a free port, spawn Prism in
 * its own process group, wait until it accepts connections, and end the whole
 * group on close or on a failed start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Keep at most this much of Prism's output (the start of it holds the spec warnings). */
const OUTPUT_LIMIT = 4 * 1024 * 1024;
const KILL_GRACE_MS = 3_000;

/** A spawned Prism process. */
interface PrismProcess {
  /** Everything Prism wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended, for whatever reason. */
  readonly exited: Promise<number | string>;
  /** Resolves when the process accepts TCP connections on `port`; rejects if it exits first or `timeoutMs` passes. */
  ready(host: string, port: number, timeoutMs: number): Promise<void>;
  /** Ends the process group: SIGTERM, then SIGKILL after a grace period; safe to call twice. */
  kill(): Promise<void>;
}

/** Absolute path of the installed Prism CLI script (the package's `bin`). */
function prismBinPath(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bin.prism!);
}

/** Asks the OS for a free TCP port on `host` (listen on 0, read the port, close). */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Spawns `node <prism bin> ...args` in a new process group, capturing its output (and passing each chunk to `onOutput`). */
export function spawnPrism(args: readonly string[], onOutput?: (text: string) => void): PrismProcess {
  const child = spawn(process.execPath, [prismBinPath(), ...args], {
    // A group of its own, so that one signal reaches Prism and anything it forks.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let text = '';
  const append = (chunk: Buffer): void => {
    const piece = chunk.toString('utf8');
    if (text.length < OUTPUT_LIMIT) text += piece;
    onOutput?.(piece);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    // A failed spawn emits 'error' and may never emit 'exit'.
    child.once('error', (error) => {
      text += `\n${error.message}\n`;
      resolve(`spawn error: ${error.message}`);
    });
  });
  // If the test runner or CLI exits without closing, Prism must not outlive it.
  const onParentExit = (): void => signalGroup(child, 'SIGKILL');
  process.once('exit', onParentExit);
  return {
    output: () => text,
    exited,
    ready: (host, port, timeoutMs) => waitUntilReady(child, exited, host, port, timeoutMs, () => text),
    async kill() {
      process.removeListener('exit', onParentExit);
      await killGroup(child, exited);
    },
  };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || hasExited(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function killGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.pid === undefined || hasExited(child)) return;
  signalGroup(child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), KILL_GRACE_MS)));
  const outcome = await Promise.race([exited, grace]);
  clearTimeout(timer);
  if (outcome === 'late') {
    signalGroup(child, 'SIGKILL');
    await exited;
  }
}

async function waitUntilReady(
  child: ChildProcess,
  exited: Promise<unknown>,
  host: string,
  port: number,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = hasExited(child);
  void exited.then(() => (gone = true));
  while (!gone) {
    if (await accepts(host, port)) return;
    if (Date.now() > deadline)
      throw new Error(`Prism did not accept connections on ${host}:${port} within ${timeoutMs} ms\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`Prism exited (code ${child.exitCode ?? child.signalCode}) before listening\n${output()}`);
}

/** True when a TCP connection to host:port succeeds; no HTTP request is sent, so no upstream sees a probe. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1_000);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}
