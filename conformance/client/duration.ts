/**
 * Durations as people type them on a command line: a number and a unit
 * (`500ms`, `10s`, `1.5s`, `2m`). A bare number is refused: `--timeout 5`
 * once meant 5 ms and failed every case, so the unit is never guessed.
 */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Options of {@link parseDuration}. */
export interface DurationOptions {
  /** The flag named in error messages, e.g. `--timeout`. */
  flag: string;
  /** Whether `0s` is allowed (default false). */
  allowZero?: boolean;
}

/** Why a duration was refused; `code` is stable. */
export class DurationError extends Error {
  readonly code = 'PETSTORE_BAD_DURATION';
}

/** Milliseconds for `text` (`500ms`, `10s`, `2m`); throws a DurationError for anything else, a bare number included. */
export function parseDuration(text: string, options: DurationOptions): number {
  const trimmed = text.trim();
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(trimmed);
  if (!m) {
    const hint = /^\d+(\.\d+)?$/.test(trimmed)
      ? `needs a unit: ${trimmed}s or ${trimmed}ms`
      : 'must look like 500ms, 10s or 2m';
    throw new DurationError(`${options.flag} ${hint}, got ${JSON.stringify(text)}`);
  }
  const ms = Math.round(Number(m[1]) * UNITS[m[2]!]!);
  if (ms < (options.allowZero ? 0 : 1))
    throw new DurationError(`${options.flag} must be more than 0, got ${JSON.stringify(text)}`);
  return ms;
}

/** A duration for people: `850 ms`, `1.5 s`, `60 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
