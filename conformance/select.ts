/**
 * Case selection (`only`/`skip`), the coverage table, and baselines of known
 * failures: the pure parts of a run.
 */
import type { OperationInfo } from '../spec/index.ts';
import type { BaselineResult, Case, CaseResult, CoverageEntry } from './types.ts';

/**
 * Whether `id` matches `pattern`: `*` matches any run of characters, and a
 * pattern without `*` matches that id and every id below it (`listPets` matches `listPets.ok`).
 */
export function matchesPattern(pattern: string, id: string): boolean {
  if (!pattern.includes('*')) return id === pattern || id.startsWith(`${pattern}.`);
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(id);
}

/** Options of {@link selectCases}. */
export interface SelectOptions {
  only?: readonly string[];
  skip?: readonly string[];
}

/** The cases `only` keeps (all when empty) minus those `skip` names. */
export function selectCases(cases: readonly Case[], options: SelectOptions): Case[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  return cases.filter(
    (c) => (only.length === 0 || only.some((p) => matchesPattern(p, c.id))) && !skip.some((p) => matchesPattern(p, c.id)),
  );
}

/** Each (operation, documented status) of the spec with the ids of the cases that exercised it (skipped cases do not count). */
export function buildCoverage(operations: readonly OperationInfo[], results: readonly CaseResult[]): CoverageEntry[] {
  return operations.flatMap((op) =>
    op.statuses.map((status) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      status,
      caseIds: results.filter((r) => r.outcome !== 'skipped' && r.operationId === op.operationId && r.covers.includes(status)).map((r) => r.id),
    })),
  );
}

/**
 * Reads known failures from a baseline: a JSON array of case ids, an object
 * with `knownFailures`, or a previous JSON report (its failed cases).
 */
export function parseBaseline(json: unknown): string[] {
  if (Array.isArray(json) && json.every((x) => typeof x === 'string')) return json;
  const obj = json as { knownFailures?: unknown; cases?: { id?: unknown; outcome?: unknown }[] } | null;
  if (obj && Array.isArray(obj.knownFailures) && obj.knownFailures.every((x) => typeof x === 'string')) return obj.knownFailures;
  if (obj && Array.isArray(obj.cases)) return obj.cases.filter((c) => c.outcome === 'failed' && typeof c.id === 'string').map((c) => c.id as string);
  throw new Error('a baseline is a JSON array of case ids, {"knownFailures": [...]}, or a JSON report');
}

/** Compares the results with the known failures. */
export function compareBaseline(results: readonly CaseResult[], known: readonly string[]): BaselineResult {
  const knownSet = new Set(known);
  const failed = results.filter((r) => r.outcome === 'failed').map((r) => r.id);
  const passed = new Set(results.filter((r) => r.outcome === 'passed' || r.outcome === 'warned').map((r) => r.id));
  return {
    known: failed.filter((id) => knownSet.has(id)),
    fixed: known.filter((id) => passed.has(id)),
    unexpected: failed.filter((id) => !knownSet.has(id)),
  };
}
