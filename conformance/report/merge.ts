/**
 * The reports of a split run's shards (`--shard i/n`, each written with `--reporter json=FILE`) merged into the
 * report the whole run would have written, as Playwright's merge-reports does: every case once, in the whole run's
 * order, the counts, causes and status table computed again over all of them. Shards of different runs, a missing
 * shard and a shard given twice are refused: a merge never passes for a run that did not happen.
 */
import { listOperations } from '../../spec/index.ts';
import { allCases } from '../cases/index.ts';
import { ConformanceError } from '../errors.ts';
import { generatedProperties } from '../generate/catalog.ts';
import { findCauses } from '../judge/causes.ts';
import { incompleteReason, runOk, summarise } from '../judge/verdict.ts';
import type { BaselineResult, CaseResult, MergedShard, Report, Throttling } from '../types.ts';
import { readOnlyGaps } from './build.ts';
import { buildStatusTable } from './status-table.ts';

/** One shard's report, and the file it came from (errors name it). */
export interface ShardReport {
  file: string;
  report: Report;
}

function refused(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message);
}

/** What must be equal in every shard of one run, each with how to say it. */
const SAME_RUN: [string, (r: Report) => unknown][] = [
  ['base URL', (r) => r.baseUrl],
  ['shard count', (r) => r.shard?.total],
  ['seed', (r) => r.seed],
  ['selection (--only, --skip, --generate, or the suite version)', (r) => r.shard?.selection],
  ['strict and read-only settings', (r) => `strict ${r.options.strict}, read-only ${r.options.readOnly}`],
];

/** Refuses shards that are not one whole run: of different runs, one missing, one twice. */
function checkWholeRun(shards: readonly ShardReport[]): void {
  const first = shards[0]!;
  for (const [what, of] of SAME_RUN)
    for (const other of shards.slice(1))
      if (of(other.report) !== of(first.report))
        throw refused(
          `${first.file} and ${other.file} are shards of different runs: their ${what} differ (${String(of(first.report))}, ${String(of(other.report))})`,
        );
  const total = first.report.shard!.total;
  const seen = new Map<number, string>();
  for (const { file, report } of shards) {
    const current = report.shard!.current;
    const before = seen.get(current);
    if (before !== undefined) throw refused(`shard ${current}/${total} is given twice: ${before} and ${file}`);
    seen.set(current, file);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw refused(
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: a merge needs every shard of the run`,
    );
}

/** The whole run's order: the fixed cases as allCases() lists them, then the generated checks; unknown ids last. */
function inRunOrder(cases: CaseResult[]): CaseResult[] {
  const order = new Map([...allCases(), ...generatedProperties()].map((c, i) => [c.id, i]));
  const at = (c: CaseResult) => order.get(c.id) ?? Number.MAX_SAFE_INTEGER;
  return [...cases].sort((a, b) => at(a) - at(b));
}

/** The longest start all the texts share. */
function commonStart(texts: readonly string[]): string {
  let start = texts[0] ?? '';
  for (const t of texts) while (!t.startsWith(start)) start = start.slice(0, -1);
  return start;
}

function mergedThrottling(all: readonly Throttling[]): Throttling {
  const byStatus: Record<string, number> = {};
  for (const t of all)
    for (const [status, n] of Object.entries(t.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
  const sum = (key: 'retried' | 'exhausted' | 'waitedMs') => all.reduce((n, t) => n + t[key], 0);
  return {
    byStatus,
    retried: sum('retried'),
    exhausted: sum('exhausted'),
    waitedMs: sum('waitedMs'),
    maxWaitMs: all[0]!.maxWaitMs,
  };
}

function mergedBaseline(all: readonly (BaselineResult | undefined)[]): BaselineResult | undefined {
  const given = all.filter((b): b is BaselineResult => b !== undefined);
  if (given.length === 0) return undefined;
  return {
    known: given.flatMap((b) => b.known),
    fixed: given.flatMap((b) => b.fixed),
    unexpected: given.flatMap((b) => b.unexpected),
  };
}

/** The generated requests per `operation status`, from the shard that ran them, for the status table. */
function generatedStatuses(reports: readonly Report[]): Map<string, number> | undefined {
  const withGeneration = reports.filter((r) => r.generation);
  if (withGeneration.length === 0) return undefined;
  const statuses = new Map<string, number>();
  for (const r of withGeneration)
    for (const row of r.statusTable) {
      const key = `${row.operationId} ${row.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + (row.generated ?? 0));
    }
  return statuses;
}

/**
 * Merges the shards of one run into the whole run's report; throws a ConformanceError
 * (`PETSTORE_CONFORMANCE_BAD_OPTIONS`) naming the files when they are not every shard of one run.
 */
export function mergeReports(shards: readonly ShardReport[]): Report {
  if (shards.length === 0) throw refused('no report to merge');
  for (const { file, report } of shards)
    if (!report.shard) throw refused(`${file} is the report of a whole run, not of a shard (--shard i/n)`);
  const sorted = [...shards].sort((a, b) => a.report.shard!.current - b.report.shard!.current);
  checkWholeRun(sorted);
  const reports = sorted.map((s) => s.report);
  const first = reports[0]!;
  // Causes are found again over every case: one bug seen in two shards is one cause. Each shard's ids go.
  const cases = inRunOrder(
    reports.flatMap((r) => r.cases.map(({ cause: _c, consequence: _q, ...rest }) => rest as CaseResult)),
  );
  const basePath = new URL(first.baseUrl).pathname.replace(/\/+$/, '');
  const operations = listOperations();
  const summary = summarise(cases);
  const baseline = mergedBaseline(reports.map((r) => r.baseline));
  const endedShard = sorted.find((s) => s.report.ended);
  const ended = endedShard?.report.ended
    ? {
        code: endedShard.report.ended.code,
        reason: `shard ${endedShard.report.shard!.current}/${first.shard!.total} ended early: ${endedShard.report.ended.reason}`,
      }
    : undefined;
  const starts = reports.map((r) => Date.parse(r.startedAt));
  const ends = reports.map((r, i) => starts[i]! + r.durationMs);
  const bases = [...new Set(reports.map((r) => r.runId.replace(/-\d+of\d+$/, '')))];
  const generation = reports.find((r) => r.generation)?.generation;
  const merged: MergedShard[] = reports.map((r) => ({
    current: r.shard!.current,
    total: r.shard!.total,
    runId: r.runId,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    caseIds: r.cases.map((c) => c.id),
    ...(r.ended ? { ended: r.ended } : {}),
  }));
  const report: Report = {
    tool: first.tool,
    runId: bases.join('+'),
    baseUrl: first.baseUrl,
    startedAt: new Date(Math.min(...starts)).toISOString(),
    durationMs: Math.max(...ends) - Math.min(...starts),
    options: first.options,
    cases,
    causes: findCauses(cases, basePath, operations),
    deselected: first.deselected,
    summary,
    statusTable: buildStatusTable(operations, cases, basePath, generatedStatuses(reports)),
    created: {
      count: reports.reduce((n, r) => n + r.created.count, 0),
      ids: reports.flatMap((r) => r.created.ids),
      ...(reports.some((r) => r.created.unanswered)
        ? { unanswered: reports.flatMap((r) => r.created.unanswered ?? []) }
        : {}),
      namePrefix: commonStart(reports.map((r) => r.created.namePrefix)),
    },
    throttling: mergedThrottling(reports.map((r) => r.throttling)),
    ...(baseline ? { baseline } : {}),
    ...(first.proxy ? { proxy: first.proxy } : {}),
    seed: first.seed,
    ...(generation ? { generation } : {}),
    ok: !ended && runOk(summary, baseline, cases),
    ...(ended ? { ended } : {}),
    merged: { shards: merged },
  };
  const incomplete = incompleteReason(cases);
  if (incomplete) report.incomplete = incomplete;
  const notChecked = readOnlyGaps(cases, operations);
  if (notChecked) report.notChecked = notChecked;
  return report;
}
