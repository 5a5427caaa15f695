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
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
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
    (c) =>
      (only.length === 0 || only.some((p) => matchesPattern(p, c.id))) && !skip.some((p) => matchesPattern(p, c.id)),
  );
}

/** A request's operation: its method, and its path below `basePath` matched against the spec's path templates. */
export function operationOf(
  operations: readonly OperationInfo[],
  method: string,
  url: string,
  basePath: string,
): string | undefined {
  const pathname = new URL(url).pathname;
  if (!pathname.startsWith(basePath)) return undefined;
  const rest = pathname.slice(basePath.length);
  const matches = (template: string): boolean =>
    new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`).test(rest);
  return operations.find((op) => op.method === method && matches(op.path))?.operationId;
}

/** The statuses a case actually got, whole, for requests to its own operation. */
function answered(operations: readonly OperationInfo[], r: CaseResult, basePath: string): Set<number> {
  const statuses = r.exchanges
    .filter(
      (e) =>
        e.response && !e.error && operationOf(operations, e.request.method, e.request.url, basePath) === r.operationId,
    )
    .map((e) => e.response!.status);
  return new Set(statuses);
}

/**
 * Each (operation, documented status) of the spec with the ids of the cases that actually got that status
 * from that operation, and of those that declare it (`covers`) but did not get it; skipped cases do not count.
 * `basePath` is the base URL's path (`/v1`).
 */
export function buildCoverage(
  operations: readonly OperationInfo[],
  results: readonly CaseResult[],
  basePath: string,
): CoverageEntry[] {
  const ran = results
    .filter((r) => r.outcome !== 'skipped')
    .map((r) => ({ r, got: answered(operations, r, basePath) }));
  return operations.flatMap((op) =>
    op.statuses.map((status) => {
      const own = ran.filter(({ r }) => r.operationId === op.operationId);
      return {
        operationId: op.operationId,
        method: op.method,
        path: op.path,
        status,
        caseIds: own.filter(({ got }) => got.has(status)).map(({ r }) => r.id),
        declaredOnly: own.filter(({ r, got }) => r.covers.includes(status) && !got.has(status)).map(({ r }) => r.id),
      };
    }),
  );
}

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
