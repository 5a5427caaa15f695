/**
 * The report of judged traffic, shaped as a run's so every reporter renders
 * it: the causes (findCauses), each saying whose it is and the entries that
 * show it; the status table from the entries; the coverage; and the secrets
 * the HAR held hidden by the suite's own redaction, request side included.
 */

import type { Redactor } from '../../guard/redact.ts';
import { listOperations } from '../../spec/index.ts';
import { findCauses } from '../judge/causes.ts';
import { outputRedactors, redactReport } from '../report/redact-report.ts';
import type {
  CaseResult,
  Cause,
  Exchange,
  LoggedExchange,
  Report,
  StatusTableRow,
  Summary,
  TrafficSummary,
} from '../types.ts';
import type { RecordedEntry } from './entry.ts';
import type { TrafficOptions } from './options.ts';
import { entryLabel } from './results.ts';

/** What the reading counted: the summary's counts (one definition, in types.ts), and what the report is built from. */
export interface TrafficCounts
  extends Pick<
    TrafficSummary,
    'entries' | 'judged' | 'unanswered' | 'outside' | 'notOperations' | 'bodiesNotRecorded'
  > {
  throttled: Record<string, number>;
  /** `operationId status` → entries. */
  coverage: Map<string, number>;
  log: LoggedExchange[] | undefined;
  logOmitted: number;
  logChars: number;
}

interface Inputs {
  options: TrafficOptions;
  started: number;
  counts: TrafficCounts;
  results: { results: CaseResult[]; summary: Summary; omitted: number; where: Map<string, RecordedEntry> };
  secrets: string[];
  basePath: string;
  side: 'both' | 'client' | 'server';
  created: number;
  asOf?: Date;
}

const WHOSE = { client: 'the client', server: 'the server', across: 'across entries (the server)' } as const;

function statusTable(coverage: Map<string, number>): StatusTableRow[] {
  return listOperations().flatMap((op) =>
    op.statuses.map((status) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      status,
      caseIds: [],
      declaredOnly: [],
      answeredOtherwise: [],
      notApplicable: [],
      recorded: coverage.get(`${op.operationId} ${status}`) ?? 0,
    })),
  );
}

function coverageOf(coverage: Map<string, number>): { exercised: string[]; never: string[]; undocumented: string[] } {
  const documented = listOperations().flatMap((op) => op.statuses.map((s) => `${op.operationId} ${s}`));
  return {
    exercised: documented.filter((k) => coverage.has(k)),
    never: documented.filter((k) => !coverage.has(k)),
    undocumented: [...coverage.keys()].filter((k) => !documented.includes(k)).sort(),
  };
}

function redactRequest(ex: Exchange, data: Redactor): Exchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ex.request.headers)) headers[name] = data(value);
  return {
    ...ex,
    request: {
      ...ex.request,
      url: data(ex.request.url),
      headers,
      ...(ex.request.body === undefined ? {} : { body: data(ex.request.body) }),
    },
  };
}

/** The request side too: the suite's redactReport hides the server's side (a run's own requests hold no secret). */
function redactRequests(report: Report, data: Redactor): Report {
  return {
    ...report,
    cases: report.cases.map((c) => ({ ...c, exchanges: c.exchanges.map((ex) => redactRequest(ex, data)) })),
    ...(report.causes
      ? {
          causes: report.causes.map((c) =>
            c.request ? { ...c, request: redactRequest({ request: c.request, durationMs: 0 }, data).request } : c,
          ),
        }
      : {}),
    ...(report.exchangeLog
      ? {
          exchangeLog: {
            ...report.exchangeLog,
            exchanges: report.exchangeLog.exchanges.map((ex) => ({ ...ex, ...redactRequest(ex, data) })),
          },
        }
      : {}),
  };
}

/**
 * One bug, one cause: findings whose statement is the same but for the operation it starts with (`getPet: same
 * animal: id 31 …`, `listPets: same animal: id 31 …`) are one cause, naming every operation; ids renumbered.
 */
function mergeAcrossOperations(causes: Cause[], cases: CaseResult[]): Cause[] {
  const kept: Cause[] = [];
  const bare = (statement: string) => statement.replace(/^\w+: /, '');
  const ops = new Map<Cause, string[]>();
  const renamed = new Map<string, Cause>();
  const sides = new Map(cases.map((c) => [c.id, c.side]));
  const sideOf = (cause: Cause) => sides.get(cause.cases[0]!);
  for (const cause of causes) {
    const op = /^(\w+): /.exec(cause.statement)?.[1];
    const into =
      op === undefined
        ? undefined
        : kept.find((k) => ops.has(k) && bare(k.statement) === bare(cause.statement) && sideOf(k) === sideOf(cause));
    if (into && op) {
      into.cases.push(...cause.cases);
      if (!ops.get(into)!.includes(op)) ops.get(into)!.push(op);
      renamed.set(cause.id, into);
      continue;
    }
    if (op !== undefined) ops.set(cause, [op]);
    kept.push(cause);
    renamed.set(cause.id, cause);
  }
  const ids = new Map<string, string>();
  kept.forEach((cause, n) => {
    ids.set(cause.id, `C${n + 1}`);
    const names = ops.get(cause) ?? [];
    if (names.length > 1) cause.statement = `${names.join(' and ')}: ${bare(cause.statement)}`;
  });
  for (const [old, cause] of renamed) ids.set(old, ids.get(cause.id) ?? old);
  for (const c of cases) if (c.cause !== undefined) c.cause = ids.get(c.cause) ?? c.cause;
  for (const cause of kept) cause.id = ids.get(cause.id)!;
  return kept;
}

/** Why nothing could be judged, in one line. */
function nothingJudged(c: TrafficCounts, baseUrl: string): string {
  const parts = [
    `${c.entries} entr${c.entries === 1 ? 'y' : 'ies'} read`,
    ...(Object.keys(c.outside).length > 0
      ? [`outside ${baseUrl}: ${Object.values(c.outside).reduce((a, b) => a + b, 0)}`]
      : []),
    ...(Object.keys(c.unanswered).length > 0
      ? [`never answered: ${Object.values(c.unanswered).reduce((a, b) => a + b, 0)}`]
      : []),
    ...(Object.keys(c.notOperations).length > 0
      ? [`not an operation of the contract: ${Object.values(c.notOperations).reduce((a, b) => a + b, 0)}`]
      : []),
  ];
  return `nothing could be judged: no entry is an answered request to an operation under ${baseUrl} (${parts.join('; ')})`;
}

/** The report of judged traffic, secrets hidden. */
export function buildTrafficReport(i: Inputs): Report {
  const { counts, results } = i;
  const cases = results.results;
  const causes = mergeAcrossOperations(findCauses(cases, i.basePath), cases);
  const byId = new Map(cases.map((c) => [c.id, c]));
  for (const cause of causes) {
    const first = byId.get(cause.cases[0]!);
    const side = first?.side ?? 'server';
    cause.side = side;
    cause.statement = `${WHOSE[side]}: ${cause.statement}`;
    cause.evidence = cause.cases.slice(0, 5).flatMap((id) => {
      const entry = results.where.get(id);
      return entry
        ? [
            {
              entry: entryLabel(entry),
              time: entry.startedAt,
              ...(entry.page === undefined ? {} : { page: entry.page }),
            },
          ]
        : [];
    });
  }
  const incomplete = counts.judged === 0 ? nothingJudged(counts, i.options.baseUrl) : undefined;
  const report: Report = {
    tool: 'petstore-conformance',
    runId: `traffic-${new Date(i.started).toISOString().replace(/[-:.]/g, '').slice(0, 15)}`,
    baseUrl: i.options.baseUrl,
    startedAt: new Date(i.started).toISOString(),
    durationMs: Date.now() - i.started,
    options: { strict: i.options.strict === true, readOnly: true, concurrency: 0, timeoutMs: 0 },
    cases,
    causes,
    deselected: 0,
    summary: results.summary,
    statusTable: statusTable(counts.coverage),
    created: { count: i.created, ids: [], namePrefix: '' },
    throttling: { byStatus: counts.throttled, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: 0 },
    seed: 0,
    traffic: {
      files: i.options.files,
      entries: counts.entries,
      judged: counts.judged,
      unanswered: counts.unanswered,
      outside: counts.outside,
      notOperations: counts.notOperations,
      bodiesNotRecorded: counts.bodiesNotRecorded,
      side: i.side,
      resultsOmitted: results.omitted,
      coverage: coverageOf(counts.coverage),
      ...(i.asOf ? { asOf: i.asOf.toISOString() } : {}),
    },
    ...(counts.log
      ? {
          exchangeLog: {
            exchanges: counts.log,
            omitted: counts.logOmitted,
            maxEntries: 20_000,
            maxBodyBytes: 16 * 1024 * 1024,
          },
        }
      : {}),
    ok: results.summary.failed === 0 && counts.judged > 0,
    ...(incomplete ? { incomplete } : {}),
  };
  const redactors = outputRedactors(i.secrets);
  return redactRequests(redactReport(report, i.options.baseUrl, redactors), redactors.data);
}
