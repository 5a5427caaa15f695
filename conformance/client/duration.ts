/**
 * Durations as people type them on a command line: a number and a unit
 * (`500ms`, `10s`, `1.5s`, `2m`). A bare number is refused: `--timeout 5`
 * once meant 5 ms and failed every case, so the unit is never guessed.
 */

import { badOptions } from '../errors.ts';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/**
 * Milliseconds for `text` (`500ms`, `10s`, `2m`), for the option `option` (`timeoutMs`); a ConformanceError
 * (`PETSTORE_CONFORMANCE_BAD_OPTIONS`, naming the option) for anything else, a bare number included. Its range is
 * runConformance's to check.
 */
export function parseDuration(text: string, option: string): number {
  const trimmed = text.trim();
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(trimmed);
  if (!m) {
    const hint = /^\d+(\.\d+)?$/.test(trimmed)
      ? `needs a unit: ${trimmed}s or ${trimmed}ms`
      : 'must look like 500ms, 10s or 2m';
    throw badOptions(option, `${hint}, got ${JSON.stringify(text)}`);
  }
  return Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

/** A duration for people: `850 ms`, `1.5 s`, `60 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
