/**
 * The one way tests start a process and wait on it: spawn, collect its output,
 * wait for a line, stop it, or run it to the end with a deadline. Every process
 * started here is stopped by {@link stopAllProcesses} (call it in afterEach).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `node --import tsx FILE`: a TypeScript entry of this repository, run from its sources. */
export function tsxEntry(file: string): string[] {
  return [process.execPath, '--import', 'tsx', file];
}

/** How a process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A process started by {@link spawnProcess}. */
export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its output is closed. */
  exited: Promise<Exit>;
  /** Resolves with the first match of `pattern` in stdout, or rejects when the process exits first or time runs out. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends `signal` (to the whole group when started detached) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** Options of {@link spawnProcess}. */
export interface SpawnOptions {
  cwd?: string;
  /** The whole environment of the process (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Its own process group, so that stop() reaches its children too (npm's, say). */
  detached?: boolean;
}

const running = new Set<Spawned>();

/** Starts `command` with `args`; stdin is closed. */
export function spawnProcess(command: readonly string[], options: SpawnOptions = {}): Spawned {
  const [file, ...args] = command;
  const child = spawn(file!, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    detached: options.detached === true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Decoded across chunks: a character whose UTF-8 bytes a pipe splits must not become replacement characters
  // (a report holding U+FFFD read as three of them when Bun's writes split it).
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => {
      stderr += `spawn error: ${error.message}`;
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const spawned: Spawned = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitForOutput(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let done = false;
      void exited.then(() => (done = true));
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (done) throw new Error(`${file} exited before printing ${pattern}:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline)
          throw new Error(`${file} did not print ${pattern} in ${timeoutMs} ms:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          if (options.detached) process.kill(-child.pid!, signal);
          else child.kill(signal);
        } catch {
          // Already gone.
        }
      }
      return exited;
    },
  };
  running.add(spawned);
  void exited.then(() => running.delete(spawned));
  return spawned;
}

/** What {@link runProcess} saw. */
export interface Ran extends Exit {
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Runs a command to its end; kills it and rejects if it runs longer than `timeoutMs` (default 120 s: generous, since
 * the CLI compiling the suite under tsx took over 60 s with the two cores busy; a hang is what this catches).
 */
export async function runProcess(
  command: readonly string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Ran> {
  const started = performance.now();
  const spawned = spawnProcess(command, options);
  const timeoutMs = options.timeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void spawned.stop('SIGKILL');
      reject(
        new Error(`${command.join(' ')} ran longer than ${timeoutMs} ms:\n${spawned.stdout()}\n${spawned.stderr()}`),
      );
    }, timeoutMs);
  });
  try {
    const exit = await Promise.race([spawned.exited, timedOut]);
    return { ...exit, stdout: spawned.stdout(), stderr: spawned.stderr(), durationMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** Stops every process a test started and has not yet seen exit. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((spawned) => spawned.stop()));
}
