/** Baselines of known failures: reading one, and comparing a run with it. */
import { badOptions } from '../errors.ts';
import type { BaselineResult, CaseResult } from '../types.ts';

/**
 * Reads known failures from a baseline: a JSON array of case ids, an object
 * with `knownFailures`, or a previous JSON report (its failed cases).
 */
export function parseBaseline(json: unknown): string[] {
  if (Array.isArray(json) && json.every((x) => typeof x === 'string')) return json;
  const obj = json as { knownFailures?: unknown; cases?: { id?: unknown; outcome?: unknown }[] } | null;
  if (obj && Array.isArray(obj.knownFailures) && obj.knownFailures.every((x) => typeof x === 'string'))
    return obj.knownFailures;
  if (obj && Array.isArray(obj.cases))
    return obj.cases.filter((c) => c.outcome === 'failed' && typeof c.id === 'string').map((c) => c.id as string);
  throw badOptions('baseline', 'must be a JSON array of case ids, {"knownFailures": [...]}, or a JSON report');
}

/** Compares the results with the known failures. */
export function compareBaseline(results: readonly CaseResult[], known: readonly string[]): BaselineResult {
  const knownSet = new Set(known);
  const failed = results.filter((r) => r.outcome === 'failed').map((r) => r.id);
  const passed = new Set(results.filter((r) => ['passed', 'warned', 'info'].includes(r.outcome)).map((r) => r.id));
  return {
    known: failed.filter((id) => knownSet.has(id)),
    fixed: known.filter((id) => passed.has(id)),
    unexpected: failed.filter((id) => !knownSet.has(id)),
  };
}
