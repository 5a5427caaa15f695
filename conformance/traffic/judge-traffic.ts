/**
 * Judging recorded traffic: HAR files read as streams, merged in time order,
 * each entry under the base URL to an operation of the contract judged on both
 * sides, the checks across entries, then a Report as a run's (causes, status
 * table, secrets hidden by the suite's redaction). HAR is one more source of
 * exchanges: the same judge, causes and reporters.
 * @see ../../docs/conformance.md "Judging recorded traffic"
 */
import type { listOperations } from '../../spec/index.ts';
import { operationMatcher } from '../../spec/match.ts';
import { badOptions } from '../errors.ts';
import { KEPT_BODY_CHARS } from '../run/keep.ts';
import type { Report } from '../types.ts';
import { createAcross } from './across.ts';
import { type RecordedEntry, recordedEntry, type SecretSink } from './entry.ts';
import { deprecationChecks, judgeClient, judgeServer } from './judge-entry.ts';
import type { TrafficOptions } from './options.ts';
import { type HarEntryRead, MAX_ENTRY_BYTES, readHarEntries } from './read-har.ts';
import { buildTrafficReport, type TrafficCounts } from './report.ts';
import { createResultSink } from './results.ts';

function timeOf(read: HarEntryRead): number {
  const t = Date.parse(String(read.entry.startedDateTime ?? ''));
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/** The entries of every file in time order (each file is read in its own order; the heads are merged). */
async function* inTimeOrder(files: readonly string[], maxEntryBytes: number): AsyncGenerator<HarEntryRead> {
  const readers = files.map((f) => readHarEntries(f, maxEntryBytes));
  const heads: (HarEntryRead | undefined)[] = [];
  for (const r of readers) heads.push((await r.next()).value ?? undefined);
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++)
      if (heads[i] && (best < 0 || timeOf(heads[i]!) < timeOf(heads[best]!))) best = i;
    if (best < 0) return;
    yield heads[best]!;
    heads[best] = (await readers[best]!.next()).value ?? undefined;
  }
}

function checkOptions(options: TrafficOptions): { base: URL; basePath: string; asOf?: Date } {
  if (options.files.length === 0)
    throw badOptions('files', 'must name at least one HAR file', 'no HAR file given (files)');
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw badOptions('baseUrl', `is not a URL: ${JSON.stringify(options.baseUrl.slice(0, 80))}`);
  }
  let asOf: Date | undefined;
  if (options.asOf !== undefined) {
    asOf = options.asOf instanceof Date ? options.asOf : new Date(options.asOf);
    if (Number.isNaN(asOf.getTime()))
      throw badOptions('asOf', `is not a date: ${JSON.stringify(String(options.asOf))}`);
  }
  if (options.side !== undefined && !['both', 'client', 'server'].includes(options.side))
    throw badOptions('side', `must be client, server or both, got ${JSON.stringify(options.side)}`);
  return { base, basePath: base.pathname.replace(/\/+$/, ''), ...(asOf ? { asOf } : {}) };
}

function bump(counts: Record<string, number>, key: string, max = 50): void {
  if (counts[key] !== undefined || Object.keys(counts).length < max) counts[key] = (counts[key] ?? 0) + 1;
  else counts['(others)'] = (counts['(others)'] ?? 0) + 1;
}

/**
 * Judges the recorded traffic of `options.files` against the contract, on both sides, and returns the report as a
 * run's. Throws a ConformanceError `PETSTORE_CONFORMANCE_BAD_HAR` (one line naming the file and the place) for a
 * file that is not a HAR, and `PETSTORE_CONFORMANCE_BAD_OPTIONS` for bad options.
 */
export async function judgeTraffic(options: TrafficOptions): Promise<Report> {
  const started = Date.now();
  const { base, basePath, asOf } = checkOptions(options);
  const strict = options.strict === true;
  const side = options.side ?? 'both';
  const matcher = operationMatcher(basePath);
  const sink: SecretSink = {
    secrets: new Set(),
    headers: new Set((options.secretHeaders ?? []).map((h) => h.toLowerCase())),
  };
  const results = createResultSink(side, strict);
  const across = createAcross();
  const counts: TrafficCounts = {
    entries: 0,
    judged: 0,
    unanswered: {},
    outside: {},
    notOperations: {},
    bodiesNotRecorded: 0,
    throttled: {},
    coverage: new Map(),
    log: options.exchangeLog ? [] : undefined,
    logOmitted: 0,
    logChars: 0,
  };
  const judgeOptions = { strict, ...(asOf ? { asOf } : {}) };
  let seq = 0;
  for await (const read of inTimeOrder(options.files, options.maxEntryBytes ?? MAX_ENTRY_BYTES)) {
    const entry = recordedEntry(read, seq++, sink);
    counts.entries++;
    keepInLog(counts, entry);
    let url: URL;
    try {
      url = new URL(entry.exchange.request.url);
    } catch {
      bump(counts.outside, '(not a URL)');
      continue;
    }
    const under = url.origin === base.origin && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
    if (!under) {
      bump(counts.outside, url.host);
      continue;
    }
    if (entry.unanswered) {
      bump(counts.unanswered, entry.unanswered);
      continue;
    }
    const route = matcher.route(url.pathname);
    const op = route?.operations.get(entry.exchange.request.method === 'HEAD' ? 'GET' : entry.exchange.request.method);
    if (!route || !op) {
      bump(counts.notOperations, `${entry.exchange.request.method} ${route?.template ?? url.pathname}`);
      continue;
    }
    const status = entry.exchange.response!.status;
    if (status === 429 || (status === 503 && entry.exchange.response!.headers['retry-after'] !== undefined)) {
      bump(counts.throttled, String(status));
      continue;
    }
    judgeOne(entry, op, route.params, counts, results, across, judgeOptions);
  }
  for (const f of across.finish()) results.add(f.entry, 'across', f.operationId, f.checks, f.exchanges);
  return buildTrafficReport({
    options,
    started,
    counts,
    results: results.done(),
    secrets: [...sink.secrets],
    basePath,
    side,
    created: across.created(),
    ...(asOf ? { asOf } : {}),
  });
}

function judgeOne(
  entry: RecordedEntry,
  op: ReturnType<typeof listOperations>[number],
  params: Readonly<Record<string, string>>,
  counts: TrafficCounts,
  results: ReturnType<typeof createResultSink>,
  across: ReturnType<typeof createAcross>,
  judgeOptions: { strict: boolean; asOf?: Date },
): void {
  counts.judged++;
  const status = entry.exchange.response!.status;
  const key = `${op.operationId} ${status}`;
  counts.coverage.set(key, (counts.coverage.get(key) ?? 0) + 1);
  const client = judgeClient(entry, op, params, judgeOptions);
  const server = judgeServer(entry, op, client, judgeOptions);
  if ([...client.checks, ...server].some((c) => c.info)) counts.bodiesNotRecorded++;
  const findings = across.see(entry, op.operationId, { validList: !client.invalid && !client.noKey });
  const advice = op.deprecated && status === 200 ? deprecationChecks(entry) : [];
  results.add(entry, 'client', op.operationId, client.checks, [entry.exchange]);
  results.add(entry, 'server', op.operationId, server, [entry.exchange]);
  if (advice.length > 0) results.add(entry, 'server', op.operationId, advice, [entry.exchange], 'advice');
  // One result per entry and side: what the entry shows across entries, together.
  if (findings.length > 0) {
    const exchanges = [...new Set(findings.flatMap((f) => f.exchanges))];
    results.add(
      entry,
      'across',
      op.operationId,
      findings.flatMap((f) => f.checks),
      exchanges,
    );
  }
}

/** Bounds of the entries kept for the har reporter (as a run's exchange log). */
const LOG = { maxEntries: 20_000, maxBodyChars: 16 * 1024 * 1024 };

/** Keeps a copy of the entry for the har reporter: bodies cut as a report shows them, no parsed JSON; bounded. */
function keepInLog(counts: TrafficCounts, entry: RecordedEntry): void {
  if (!counts.log) return;
  if (counts.log.length >= LOG.maxEntries) {
    counts.logOmitted++;
    return;
  }
  const ex = entry.exchange;
  const size = (ex.request.body?.length ?? 0) + (ex.response?.body.length ?? 0);
  const keepBodies = counts.logChars + size <= LOG.maxBodyChars;
  if (keepBodies) counts.logChars += size;
  const { body: sent, ...request } = ex.request;
  const response = ex.response && {
    status: ex.response.status,
    headers: ex.response.headers,
    bytes: ex.response.bytes,
    body: keepBodies ? ex.response.body.slice(0, KEPT_BODY_CHARS) : '',
    ...(keepBodies && ex.response.body.length > KEPT_BODY_CHARS ? { bodyCut: true as const } : {}),
  };
  counts.log.push({
    request: { ...request, ...(keepBodies && sent !== undefined ? { body: sent.slice(0, KEPT_BODY_CHARS) } : {}) },
    ...(response ? { response } : {}),
    ...(entry.unanswered ? { error: { code: 'UNANSWERED', message: entry.unanswered } } : {}),
    durationMs: ex.durationMs,
    startedAt: entry.startedAt,
    ...(keepBodies ? {} : { bodiesOmitted: true as const }),
  });
}
