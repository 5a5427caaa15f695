/**
 * The live progress line (`12/53 cases, 1 failed`) for runs against slow
 * targets: only on an interactive terminal, never in a CI log or a pipe, and
 * always erased before anything else is written to the same stream.
 */
import type { Progress } from '../types.ts';

/** A stream the line can be drawn on. */
interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Draws and erases the line; both do nothing when the stream is not a terminal. */
interface ProgressLine {
  readonly enabled: boolean;
  update(progress: Progress): void;
  clear(): void;
}

/** Whether a progress line belongs on `stream`: a TTY, outside CI, and not on a dumb terminal. */
function wantsProgress(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.CI && env.TERM !== 'dumb';
}

/** The text of the line. */
function progressText(p: Progress): string {
  return `petstore-conformance: ${p.done}/${p.total} cases, ${p.failed} failed`;
}

/** Makes the progress line for `stream`. */
export function createProgressLine(stream: ProgressStream, env: NodeJS.ProcessEnv): ProgressLine {
  const enabled = wantsProgress(stream, env);
  let drawn = false;
  return {
    enabled,
    update(p) {
      if (!enabled) return;
      // Carriage return and erase-line: the line is redrawn in place, never scrolled.
      stream.write(`\r\u001b[2K${progressText(p)}`);
      drawn = true;
    },
    clear() {
      if (!drawn) return;
      stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
