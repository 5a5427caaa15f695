/**
 * The reliability tests' mock in a process of its own (support/mock-child.ts): started with the keys and options a
 * test names, its stderr kept (a test expects it empty), and stopped by asking it to close, then killed if it
 * does not within 3 s.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ChildRequest } from './mock-child.ts';

const CHILD = fileURLToPath(new URL('./mock-child.ts', import.meta.url));

/** A running mock child. */
export interface ForkedMock {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`, as the child printed it. */
  origin: string;
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** Closes the mock and waits for the process to end (killed after 3 s). */
  stop(): Promise<void>;
}

/** Options of {@link forkMock}. */
export interface ForkMockOptions {
  key: string;
  /** More createMock options (journalSize, …), as mock-child.ts reads them. */
  options?: Record<string, unknown>;
  /** `--max-old-space-size` of the child, in MB (default: node's). */
  maxOldSpaceMb?: number;
}

/** Starts the mock child (with `--expose-gc`, for its `memory` message) and waits for its origin. */
export async function forkMock({ key, options, maxOldSpaceMb }: ForkMockOptions): Promise<ForkedMock> {
  const child = fork(CHILD, [], {
    execArgv: ['--expose-gc', ...(maxOldSpaceMb ? [`--max-old-space-size=${maxOldSpaceMb}`] : []), '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      RELIABILITY_KEYS: key,
      ...(options ? { RELIABILITY_OPTIONS: JSON.stringify(options) } : {}),
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const origin = (JSON.parse(line.toString().split('\n')[0]!) as { origin: string }).origin;
  return {
    child,
    origin,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      child.send({ type: 'close' } satisfies ChildRequest);
      await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 3_000))]);
      child.kill();
    },
  };
}
