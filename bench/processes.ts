/**
 * Child servers for the bench: spawned in their own process group on
 * 127.0.0.1, bounded in time, and always killed (also when the bench fails).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A spawned server process and how to stop it. */
export interface ChildServer {
  child: ChildProcess;
  /** When it was spawned, from `performance.now()`. */
  spawnedAt: number;
  /** Everything it wrote to stdout so far. */
  stdout(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** Terminates the whole process group: SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** The command and the end of its stderr, for error messages. */
  toString(): string;
}

/** Options for {@link spawnServer}. */
export interface SpawnOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Working directory (default: the repository root). */
  cwd?: string;
  /** Killed after this long whatever happens (default 5 minutes). */
  maxLifetimeMs?: number;
  /** 'ignore' sends stderr to /dev/null (a request log under load), so that reading it costs this process nothing. */
  stderr?: 'pipe' | 'ignore';
}

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const live = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function killAll(): void {
  for (const pid of live) killGroup(pid, 'SIGKILL');
  live.clear();
}

process.once('exit', killAll);
let ending = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // `on`, not `once`: a second signal while the exit handlers run (Ctrl-C sends one to the tsx wrapper too, which
  // relays it) would find no listener, take the default action and kill the bench halfway through removing its
  // temporary project (15 MB of 226 were left). The listener stays, and ignores every signal after the first.
  process.on(signal, () => {
    if (ending) return;
    ending = true;
    killAll();
    process.exit(130);
  });
}

/** Spawns a server in its own process group (so npm, tsx and their children go together). */
export function spawnServer({
  command,
  args,
  env,
  cwd = ROOT,
  maxLifetimeMs = 300_000,
  stderr = 'pipe',
}: SpawnOptions): ChildServer {
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', stderr],
    env: { ...process.env, ...env },
  });
  const pid = child.pid!;
  live.add(pid);
  let out = '';
  // Only the start of stdout matters (the listening line); Prism logs every request.
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => void (out.length < 65_536 && (out += chunk)));
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err = (err + chunk).slice(-4000)));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), maxLifetimeMs);
  timer.unref();
  void exited.then(() => {
    clearTimeout(timer);
    // The direct child may exit before its own children (npm -> sh -> node).
    killGroup(pid, 'SIGKILL');
    live.delete(pid);
  });
  return {
    child,
    spawnedAt,
    stdout: () => out,
    exited,
    async stop() {
      if (!live.has(pid)) return;
      killGroup(pid, 'SIGTERM');
      const grace = setTimeout(() => killGroup(pid, 'SIGKILL'), 2_000);
      await exited;
      clearTimeout(grace);
    },
    toString: () => `${command} ${args.join(' ')} (stderr: ${err.trim().slice(-500)})`,
  };
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One HTTP request on a fresh connection; resolves with the status, or 0 when it could not connect. */
export function probe(url: string, headers: Record<string, string> = {}, timeoutMs = 2_000): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Polls `url` until it answers 200; resolves with the time since `server` was spawned, in ms. */
export async function waitFor200(
  server: ChildServer,
  url: string,
  headers: Record<string, string>,
  timeoutMs = 60_000,
): Promise<number> {
  let exitedEarly: number | string | undefined;
  void server.exited.then((code) => (exitedEarly = code));
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exitedEarly !== undefined)
      throw new Error(`server exited (${exitedEarly}) before answering 200: ${String(server)}`);
    if ((await probe(url, headers)) === 200) return performance.now() - server.spawnedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms: ${String(server)}`);
}

/** Waits until the server's stdout matches `pattern`; resolves with the match and the time since spawn. */
export async function waitForOutput(
  server: ChildServer,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<{ match: RegExpMatchArray; ms: number }> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = pattern.exec(server.stdout());
      if (match) {
        server.child.stdout!.off('data', check);
        resolve({ match, ms: performance.now() - server.spawnedAt });
      } else if (performance.now() > deadline) {
        reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms: ${String(server)}`));
      }
    };
    server.child.stdout!.on('data', check);
    void server.exited.then((code) => reject(new Error(`server exited (${code}) early: ${String(server)}`)));
    setTimeout(check, timeoutMs + 10).unref();
    check();
  });
}

const CLOCK_TICKS_PER_S = 100;

/**
 * CPU time a process has used so far (user + system, every thread, exited ones
 * included), in seconds, from /proc (Linux only; `undefined` elsewhere). The
 * kernel counts it in ticks of 10 ms: a run of a few seconds reads it to ~0.5 %.
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * CPU time the live threads of a process have run so far, in seconds, to the nanosecond: the sum of each thread's
 * /proc/PID/task/TID/schedstat (Linux with schedstats; `undefined` elsewhere). Unlike {@link cpuSeconds}, which the
 * kernel samples in 10 ms ticks, it reads a slice of a few milliseconds exactly; threads that exited are not in it
 * (a Node server's threads live as long as it does).
 */
export function threadCpuSeconds(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread exited between the listing and the read.
      }
    }
    return Number.isFinite(ns) && ns > 0 ? ns / 1e9 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in bytes, from /proc (Linux only; `undefined` elsewhere). */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of a process so far (VmHWM) in bytes, from /proc (Linux only; `undefined` elsewhere). */
export function peakRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A CPU's time so far by kind, in ticks, from /proc/stat's line for it (`cpu` alone: every CPU summed). */
export interface CpuTicks {
  total: number;
  idle: number;
  steal: number;
}

/** /proc/stat's counters for `cpu` (a CPU number; every CPU when absent), or `undefined` off Linux. */
export function cpuTicks(cpu?: number, stat?: string): CpuTicks | undefined {
  try {
    const name = cpu === undefined ? 'cpu' : `cpu${cpu}`;
    const line = (stat ?? readFileSync('/proc/stat', 'utf8')).split('\n').find((l) => l.startsWith(`${name} `));
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    const n = line?.trim().split(/\s+/).slice(1, 9).map(Number);
    if (n === undefined || n.length < 8 || n.some((x) => !Number.isFinite(x))) return undefined;
    return { total: n.reduce((a, b) => a + b, 0), idle: n[3]! + n[4]!, steal: n[7]! };
  } catch {
    return undefined;
  }
}

/**
 * What a CPU did between two readings, as parts of its time: `steal`, the time the hypervisor ran something else
 * while this CPU had work (a neighbour on the host), and `busy`, every other non-idle time (this machine's own work).
 */
export function cpuShare(before: CpuTicks, after: CpuTicks): { steal: number; busy: number } | undefined {
  const total = after.total - before.total;
  if (!(total > 0)) return undefined;
  const steal = (after.steal - before.steal) / total;
  return { steal, busy: 1 - (after.idle - before.idle) / total - steal };
}
