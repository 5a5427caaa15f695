/**
 * `--start CMD` (the convention of Playwright's `webServer` and start-server-and-test): the server under test
 * started by the suite, in its own process group with its output kept, and the whole group stopped at the end,
 * whatever the end. A server already answering at the base URL is refused before anything starts: a stale server
 * (a mock a previous job left behind) must never be judged in place of the one this run starts. Node only; POSIX
 * process groups (the command runs under /bin/sh).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { formatDuration } from '../client/duration.ts';
import { ConformanceError } from '../errors.ts';

/** Lines of the command's output an error shows, and the bytes of output kept to find them. */
const SHOWN_LINES = 20;
const KEPT_BYTES = 64 * 1024;

/** How long the group has to stop after SIGTERM before it gets SIGKILL. */
const STOP_GRACE_MS = 5000;

/** Options of {@link startServer}. */
interface StartOptions {
  /** The shell command (`sh -c`). */
  command: string;
  /** The base URL the server must answer at. */
  baseUrl: string;
  /** How long it may take to answer at all. */
  waitForMs: number;
  /** Hides the run's secrets in the command's output before it is shown. */
  hide: (text: string) => string;
  env: NodeJS.ProcessEnv;
  /** Called as soon as the command is spawned, before it answers: a signal then must stop it too. */
  onSpawn?: (server: StartedServer) => void;
}

/** A server started by {@link startServer}. */
export interface StartedServer {
  /** The process group id (the shell's pid). */
  pgid: number;
  /** Stops the whole group: SIGTERM, then SIGKILL after {@link STOP_GRACE_MS}; resolves when none of it is left. */
  stop(): Promise<void>;
  /** The same, at once and synchronously (SIGKILL): for a process that is exiting now. */
  kill(): void;
}

function startError(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_NOT_UP', message);
}

/** The host and port a URL connects to. */
function endpoint(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Whether something accepts a connection at the base URL's host and port (within `timeoutMs`). */
function answersAt(baseUrl: string, timeoutMs = 1000): Promise<boolean> {
  const { host, port } = endpoint(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Whether a process of group `pgid` is still running (a zombie, dead but not yet reaped by an init that may never
 * reap it, is not). Reads /proc where there is one; elsewhere asks the kernel, which counts zombies too.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false;
    }
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Gone already.
  }
}

/** The last lines of what the command printed, secrets hidden, each indented, for an error. */
function lastLines(output: string, hide: (text: string) => string): string {
  const lines = hide(output)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(-SHOWN_LINES);
  return lines.length === 0 ? ' (it printed nothing)' : `; its last lines:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts `options.command` once nothing answers at the base URL, and resolves once something does. Throws a
 * ConformanceError (exit 2) when something answered before (nothing is started), when the command exits first, or
 * when nothing answers within `waitForMs` (the group is stopped first); each names the command's last lines.
 */
export async function startServer(options: StartOptions): Promise<StartedServer> {
  if (await answersAt(options.baseUrl))
    throw startError(
      `something already answers at ${options.baseUrl}: --start would judge it instead of the server it starts (a stale server from an earlier run?); stop it, or drop --start to test it`,
    );
  const child: ChildProcess = spawn('/bin/sh', ['-c', options.command], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-KEPT_BYTES);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (e) => {
      exit = `could not be started (${(e as NodeJS.ErrnoException).code ?? e.message})`;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exit = signal ? `was ended by ${signal}` : `exited with code ${code}`;
      resolve();
    });
  });
  const pgid = child.pid ?? -1;
  let stopped: Promise<void> | undefined;
  const server: StartedServer = {
    pgid,
    kill: () => signalGroup(pgid, 'SIGKILL'),
    stop() {
      stopped ??= (async () => {
        if (pgid < 0) return;
        signalGroup(pgid, 'SIGTERM');
        const deadline = Date.now() + STOP_GRACE_MS;
        while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
        signalGroup(pgid, 'SIGKILL');
        while (groupAlive(pgid) && Date.now() < deadline + STOP_GRACE_MS) await sleep(50);
        child.stdout?.destroy();
        child.stderr?.destroy();
      })();
      return stopped;
    },
  };
  options.onSpawn?.(server);
  const deadline = Date.now() + options.waitForMs;
  let pause = 100;
  for (;;) {
    if (exit !== undefined) {
      await server.stop();
      throw startError(
        `the --start command ${exit} before anything answered at ${options.baseUrl}${lastLines(output, options.hide)}`,
      );
    }
    if (await answersAt(options.baseUrl, Math.min(1000, Math.max(1, deadline - Date.now())))) return server;
    if (Date.now() >= deadline) {
      await server.stop();
      throw startError(
        `nothing answered at ${options.baseUrl} within ${formatDuration(options.waitForMs)} of --start (--wait-for)${lastLines(output, options.hide)}`,
      );
    }
    await Promise.race([sleep(pause), exited]);
    pause = Math.min(pause * 2, 1000);
  }
}
