/**
 * The report of a run: the results, their counts and status table, what the run
 * created and waited for, the baseline comparison, and the key hidden once,
 * here, after every check has read the exchanges as the server sent them.
 */
import { listOperations } from '../../spec/index.ts';
import type { Client } from '../client/client.ts';
import type { RunHistory } from '../client/history.ts';
import type { GenerationOutcome } from '../generate/index.ts';
import { findCauses } from '../judge/causes.ts';
import { incompleteReason, runOk, summarise } from '../judge/verdict.ts';
import { compareBaseline } from '../run/baseline.ts';
import { namePrefix } from '../run/context.ts';
import type { Settings } from '../run/settings.ts';
import type { CaseResult, ExchangeLog, Report } from '../types.ts';
import { excerpt } from '../words.ts';
import { outputRedactors, redactReport } from './redact-report.ts';
import { buildStatusTable } from './status-table.ts';

/** What the run stages found, for {@link buildReport}. */
interface RunFindings {
  started: number;
  results: CaseResult[];
  client: Client;
  /** What the run's requests did to the server's state; absent for a report built without one. */
  history?: RunHistory;
  generation: GenerationOutcome | undefined;
  exchangeLog: ExchangeLog | undefined;
  /** Why the run ended early, when it did. */
  ended?: { code: string; reason: string };
}

/** What a read-only run could not check: the operations whose cases it skipped for sending a POST, with how many. */
export function readOnlyGaps(
  results: readonly CaseResult[],
  operations: ReturnType<typeof listOperations>,
): string | undefined {
  const skipped = results.filter((r) => r.outcome === 'skipped' && r.reason?.startsWith('read-only:'));
  if (skipped.length === 0) return undefined;
  const byOperation = new Map<string, number>();
  for (const r of skipped) byOperation.set(r.operationId, (byOperation.get(r.operationId) ?? 0) + 1);
  const named = [...byOperation].map(([id, n]) => {
    const op = operations.find((o) => o.operationId === id);
    return `${id}${op ? ` (${op.method} ${op.path})` : ''}, ${n} case${n === 1 ? '' : 's'}`;
  });
  return `${named.join('; ')}: a read-only run sends GET only`;
}

/**
 * What the run created: every 2xx create, and every animal a listing or fetch showed under a name a create of the
 * run sent that answered otherwise (a 500 that stored it): the run's too, named with that create.
 */
function createdByRun(
  count: number,
  ids: number[],
  prefix: string,
  history: RunHistory | undefined,
): Report['created'] {
  const stored = history?.stored() ?? [];
  if (stored.length === 0) return { count, ids, namePrefix: prefix };
  return {
    count: count + stored.length,
    ids: [...ids, ...stored.map((s) => s.id)],
    namePrefix: prefix,
    unanswered: stored.map((s) => ({
      id: s.id,
      request: `${s.request.method} ${s.request.url}${s.request.body === undefined ? '' : ` ${excerpt(s.request.body, 100)}`}`,
      answered: s.answered,
    })),
  };
}

/** The report of a run, with the key hidden. */
export function buildReport(settings: Settings, f: RunFindings): Report {
  const baseline = settings.baseline ? compareBaseline(f.results, settings.baseline) : undefined;
  const summary = summarise(f.results);
  const { stats } = f.client;
  const operations = listOperations();
  const report: Report = {
    tool: 'petstore-conformance',
    runId: settings.runId,
    baseUrl: settings.baseUrl,
    startedAt: new Date(f.started).toISOString(),
    durationMs: Date.now() - f.started,
    options: settings.reported,
    cases: f.results,
    causes: findCauses(f.results, settings.basePath, operations, f.history),
    deselected: settings.deselected,
    summary,
    statusTable: buildStatusTable(operations, f.results, settings.basePath, f.generation?.statuses),
    created: createdByRun(stats.created, stats.createdIds, namePrefix(settings.runId), f.history),
    throttling: { ...f.client.throttleStats },
    ...(baseline ? { baseline } : {}),
    seed: settings.seed,
    ...(settings.proxy ? { proxy: { url: settings.proxy.shown, source: settings.proxy.source } } : {}),
    ...(f.generation ? { generation: f.generation.summary } : {}),
    ...(f.exchangeLog ? { exchangeLog: f.exchangeLog } : {}),
    ok: !f.ended && runOk(summary, baseline, f.results),
    ...(f.ended ? { ended: f.ended } : {}),
    ...(settings.shard ? { shard: settings.shard } : {}),
  };
  const incomplete = incompleteReason(f.results);
  if (incomplete) report.incomplete = incomplete;
  const notChecked = readOnlyGaps(f.results, operations);
  if (notChecked) report.notChecked = notChecked;
  // The one place the secrets are hidden: the checks have read everything as the server sent it.
  return redactReport(report, settings.apiBase, outputRedactors(settings.secrets));
}
