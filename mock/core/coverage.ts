/**
 * Contract coverage of the traffic the mock answered: for each operation, how
 * many times the client received each documented response and each answer the
 * mock can be made to give, by who shaped it (the client's own request, a
 * scenario, `Prefer`, chaos, the rate limit); the request variations that
 * matter to a client of this interface; the deprecated operation's calls; and
 * each kind of request the contract refuses that the client sent without a
 * test forcing it. Counters, not a log: memory stays the same however long the
 * run. Every adapter counts the same way (a layer beside the journal).
 */
import {
  type LimitBounds,
  listOperations,
  listPetsLimit,
  type OperationInfo,
  petStatuses,
  sunsetOf,
} from '../../spec/index.ts';
import { SERVICE_FAILURES } from './forced.ts';
import { IdRanges } from './id-ranges.ts';
import { FORCED_SOURCES, type ForcedSource, forcedBy, type RequestContext } from './layers.ts';
import { queryMemo } from './memo.ts';
import type { ApiResponse } from './responses.ts';

/** Who shaped an answer: the request as the client sent it, or what forced it. */
export type CoverageSource = 'client' | ForcedSource;

const SOURCES: readonly CoverageSource[] = ['client', ...FORCED_SOURCES];

/** One operation's answer with one status (or fault) and how often the client received it, by source. */
export interface ResponseCoverage {
  /** `getPet 404`, `listPets 503`, `createPet fault=reset`. */
  id: string;
  operationId: string;
  status: number | null;
  fault?: string;
  /** The interface documents this status for the operation. */
  documented: boolean;
  count: number;
  bySource: Record<CoverageSource, number>;
  /** Answers the mock made whose client had gone away before they were sent (its timeout): not in `count`. */
  abandoned: number;
}

/** A request variation that matters to a client of this interface, and how often it was sent. */
export interface VariationCoverage {
  id: string;
  count: number;
}

/** One kind of request the contract refuses, sent by the client without a test forcing it. */
export interface InvalidRequestKind {
  /** `listPets: limit must be an integer from 1 to 100`. */
  kind: string;
  count: number;
  /** The first such request (`GET /v1/pets?limit=0`) and what the mock answered. */
  example: { request: string; status: number; message: string };
}

/** What a client's tests exercised, as `GET /__control/coverage` and `coverage()` give it. */
export interface CoverageReport {
  /** When counting started (the mock's start, or the last `clearCoverage()`), ISO 8601. */
  since: string;
  /** API requests counted. */
  requests: number;
  /** Every documented response and every forceable answer of every operation, received or not. */
  responses: ResponseCoverage[];
  /** The documented responses never received: `getPet 404`, ... */
  neverReceived: string[];
  variations: VariationCoverage[];
  /** Calls to the deprecated getPet: what replaces it, when it goes, and whether it is gone already (`asOf`). */
  deprecated: { operationId: string; calls: number; sunset: string; replacement: string; removed: boolean }[];
  /** Requests the contract refuses that the client sent itself (not forced), by kind. */
  invalidRequests: InvalidRequestKind[];
  /** API requests to no operation (an unknown route, a method not allowed, a removed operation). */
  unknownRoutes: number;
}

/** Options of {@link createCoverage}. */
interface CoverageOptions {
  /** getPet is gone (`asOf` on or after its sunset): its calls count as calls to a removed operation. */
  removed?: ReadonlySet<string>;
  /** The counters are a session's: the mock that holds it adds them to its own, and each clears apart. */
  held?: boolean;
  /** The sessions' coverage a holder adds to its own when it reports (read then, never counted twice). */
  feeds?: () => Iterable<CoverageFeed>;
}

/** The coverage counters of one mock. */
export interface Coverage {
  record(context: RequestContext, response: ApiResponse): void;
  report(): CoverageReport;
  clear(): void;
  /** These counters as a holder adds them to its own (a session's). */
  readonly feed: CoverageFeed;
  /** Keeps an ended session's counts (those its holder has not cleared) in this holder's own. */
  absorb(feed: CoverageFeed): void;
}

/** A session's counters as its holder reads them. */
export interface CoverageFeed {
  /** What the session counted since the holder's last clear: one or two sets of counts, to be added up. */
  counts(): readonly Counts[];
  /** The holder cleared its coverage: what the session counted so far stays in the session's own only. */
  holderCleared(): void;
}

const MAX_INVALID_KINDS = 100;
/** Runs of created ids kept (a run of creates is one, however long; creates after a reset fall in one held). */
const MAX_CREATED_RANGES = 10_000;

interface Counter {
  count: number;
  bySource: Record<CoverageSource, number>;
  abandoned: number;
}

function counter(): Counter {
  return { count: 0, bySource: { client: 0, scenario: 0, prefer: 0, chaos: 0, rateLimit: 0 }, abandoned: 0 };
}

function sourceOf(context: RequestContext): CoverageSource {
  return forcedBy(context) ?? 'client';
}

/** A refusal's kind: its message without the value the client sent (`..., got "0"`), so one rule is one kind. */
function kindOf(operationId: string, message: string): string {
  const rule = message
    .replace(/,? got .*$/s, '')
    .replace(/ \(got [^)]*\)$/, '')
    // A parser's message names where the text broke: one kind whatever the position.
    .replace(/ (at|in JSON at) position \d+.*$/s, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return `${operationId}: ${rule}`;
}

/** The listing's variations a report always lists, counted or not. */
function knownVariations(limit: LimitBounds, statuses: readonly string[]): string[] {
  return [
    'listPets limit absent',
    `listPets limit=${limit.minimum}`,
    `listPets limit=${limit.maximum}`,
    'listPets limit out of range',
    'listPets no status filter',
    ...statuses.map((s) => `listPets status=${s}`),
    'listPets empty listing',
    'getPet a created pet fetched back',
  ];
}

/** Everything counted since the start or the last clear: `clear()` starts a new one. */
interface Counts {
  since: string;
  requests: number;
  unknownRoutes: number;
  responses: Map<string, Counter>;
  /**
   * Each answer's counter (row `listPets 200`, `getPet fault=reset`) found by the operation and the status or
   * fault, not by its row id: no new string to hash per request.
   */
  rowCounters: Map<string, Map<number | string, Counter>>;
  /**
   * The row counters found last: a client repeats a few answers over and over, often in turn (a listing's 200, a
   * pet's, a create's 201), and a few compares cost less than two lookups.
   */
  recentRows: RecentRows;
  /** Each variation's counter: an object, so that what is remembered per query is counted with no lookup. */
  variations: Map<string, { count: number }>;
  invalid: Map<string, InvalidRequestKind>;
  created: IdRanges;
}

function emptyCounts(): Counts {
  return {
    since: new Date().toISOString(),
    requests: 0,
    unknownRoutes: 0,
    responses: new Map(),
    rowCounters: new Map(),
    recentRows: {
      operationIds: Array.from({ length: RECENT_ROWS }, () => undefined),
      whats: Array.from({ length: RECENT_ROWS }, () => undefined),
      counters: Array.from({ length: RECENT_ROWS }, () => undefined),
      last: 0,
      next: 0,
    },
    variations: new Map(),
    invalid: new Map(),
    created: new IdRanges(MAX_CREATED_RANGES),
  };
}

/**
 * Adds `from`'s counts to `into` (a report's sum, or what ended sessions leave), within the same bounds as counting
 * does; the created ids are not added (a sum is never counted into).
 */
function addCounts(into: Counts, from: Counts): Counts {
  into.requests += from.requests;
  into.unknownRoutes += from.unknownRoutes;
  for (const [id, c] of from.responses) {
    let sum = into.responses.get(id);
    if (sum === undefined) into.responses.set(id, (sum = counter()));
    sum.count += c.count;
    sum.abandoned += c.abandoned;
    for (const source of SOURCES) sum.bySource[source] += c.bySource[source];
  }
  for (const [id, v] of from.variations) tally(into, id).count += v.count;
  for (const [kind, k] of from.invalid) {
    const known = into.invalid.get(kind);
    if (known) {
      known.count += k.count;
      continue;
    }
    const key = into.invalid.size < MAX_INVALID_KINDS ? kind : `${kind.slice(0, kind.indexOf(':'))}: other refusals`;
    const entry = into.invalid.get(key) ?? { kind: key, count: 0, example: { ...k.example } };
    entry.count += k.count;
    into.invalid.set(key, entry);
  }
  return into;
}

/** `parts` added up under `since`; the one set as it is when there is only one. */
function sumOf(since: string, parts: readonly Counts[]): Counts {
  if (parts.length === 1 && parts[0]!.since === since) return parts[0]!;
  return parts.reduce(addCounts, { ...emptyCounts(), since });
}

/** The counter of the variation `id`, made at its first use. */
function tally(counts: Counts, id: string): { count: number } {
  let v = counts.variations.get(id);
  if (v === undefined) counts.variations.set(id, (v = { count: 0 }));
  return v;
}

/** The counter of an operation's answer with a status (a number) or a fault (a string). */
function rowCounter(counts: Counts, operationId: string, what: number | string): Counter {
  const recent = counts.recentRows;
  const { operationIds, whats, last } = recent;
  // The row found last first: a client repeating one answer pays two compares.
  if (operationIds[last] === operationId && whats[last] === what) return recent.counters[last]!;
  for (let i = 0; i < RECENT_ROWS; i++)
    if (i !== last && operationIds[i] === operationId && whats[i] === what) {
      recent.last = i;
      return recent.counters[i]!;
    }
  const counter = findRowCounter(counts, operationId, what);
  const at = recent.next;
  operationIds[at] = operationId;
  whats[at] = what;
  recent.counters[at] = counter;
  recent.last = at;
  recent.next = at === RECENT_ROWS - 1 ? 0 : at + 1;
  return counter;
}

/** The row counters found last: the slot found last, and the oldest, which the next row looked up takes. */
interface RecentRows {
  operationIds: (string | undefined)[];
  whats: (number | string | undefined)[];
  counters: (Counter | undefined)[];
  last: number;
  next: number;
}

/** How many row counters found last are compared before the lookups: the mixed load's three answers and one more. */
const RECENT_ROWS = 4;

function findRowCounter(counts: Counts, operationId: string, what: number | string): Counter {
  let byWhat = counts.rowCounters.get(operationId);
  if (byWhat === undefined) counts.rowCounters.set(operationId, (byWhat = new Map()));
  let c = byWhat.get(what);
  if (c === undefined) {
    const id = typeof what === 'number' ? `${operationId} ${what}` : `${operationId} fault=${what}`;
    c = counts.responses.get(id);
    if (c === undefined) counts.responses.set(id, (c = counter()));
    if (byWhat.size < MAX_INVALID_KINDS) byWhat.set(what, c);
  }
  return c;
}

/** The variations a listing's query exercises, whatever the answer: a function of the query text alone. */
function queryVariations(rawQuery: string, limit: LimitBounds, statuses: readonly string[]): readonly string[] {
  const ids: string[] = [];
  const query = new URLSearchParams(rawQuery);
  const limitText = query.get('limit');
  if (limitText === null) ids.push('listPets limit absent');
  else if (limitText === String(limit.minimum)) ids.push(`listPets limit=${limit.minimum}`);
  else if (limitText === String(limit.maximum)) ids.push(`listPets limit=${limit.maximum}`);
  else if (!(/^[0-9]+$/.test(limitText) && Number(limitText) >= limit.minimum && Number(limitText) <= limit.maximum))
    ids.push('listPets limit out of range');
  const status = query.get('status');
  if (status === null) ids.push('listPets no status filter');
  else if (statuses.includes(status)) ids.push(`listPets status=${status}`);
  return ids;
}

/** Counts a refused request under its kind (at most MAX_INVALID_KINDS kinds per mock; the rest as other refusals). */
function noteInvalid(counts: Counts, context: RequestContext, operationId: string, response: ApiResponse): void {
  let message = '';
  try {
    message = String((JSON.parse(String(response.body)) as { message?: unknown }).message ?? '');
  } catch {
    return;
  }
  const kind = kindOf(operationId, message);
  const known = counts.invalid.get(kind);
  if (known) {
    known.count++;
    return;
  }
  const key = counts.invalid.size < MAX_INVALID_KINDS ? kind : `${operationId}: other refusals`;
  const request = `${context.request.method} ${context.path}${context.query ? `?${context.query}` : ''}`;
  const entry = counts.invalid.get(key) ?? {
    kind: key,
    count: 0,
    example: { request, status: response.status, message },
  };
  entry.count++;
  counts.invalid.set(key, entry);
}

/** Makes the counters; the documented responses come from the spec. */
export function createCoverage(options: CoverageOptions = {}): Coverage {
  const operations = listOperations();
  const limit = listPetsLimit();
  const statuses: readonly string[] = petStatuses();
  const variationIds = knownVariations(limit, statuses);
  // What requests count into now; a session's holder reads it too.
  let counts = emptyCounts();
  // When this coverage's own view starts (a holder's clear starts new counts, not a new view).
  let since = counts.since;
  // A session's counts from before the last clear of one of the two views (its own, its holder's), still in the
  // other: one set, however many clears, so that each request is counted once and read by both.
  let older: { counts: Counts; seenBy: 'own' | 'holder' } | undefined;
  // The counts of the sessions ended since this holder's last clear.
  let retired: Counts | undefined;
  // The variations' counters, remembered per query text (a client asks the same few listings over and over),
  // bounded in count and length; emptied with the counters.
  const variationsByQuery = queryMemo<readonly { count: number }[]>();

  function listVariations(context: RequestContext, response: ApiResponse): void {
    const counters =
      variationsByQuery.get(context.query) ??
      variationsByQuery.keep(
        context.query,
        queryVariations(context.query, limit, statuses).map((id) => tally(counts, id)),
      );
    for (const counter of counters) counter.count++;
    if (response.status === 200 && response.body === '[]') tally(counts, 'listPets empty listing').count++;
  }

  /** What a received answer adds beyond its row: the listing's variations, a created pet fetched back, a refusal. */
  function clientDetails(context: RequestContext, operationId: string, response: ApiResponse): void {
    if (operationId === 'listPets') listVariations(context, response);
    // The id the create's answer carries: a run of creates is one range of them, however long.
    if (operationId === 'createPet' && response.createdId !== undefined) counts.created.add(response.createdId);
    // A 200 means the handler read petId as this number (`051` is pet 51).
    if (operationId === 'getPet' && response.status === 200 && counts.created.has(Number(context.route!.params.petId)))
      tally(counts, 'getPet a created pet fetched back').count++;
    if (response.status === 400 || response.status === 401) noteInvalid(counts, context, operationId, response);
  }

  function record(context: RequestContext, response: ApiResponse): void {
    if (context.request.method === 'OPTIONS') return;
    counts.requests++;
    const operationId = context.operation?.operationId;
    const source = sourceOf(context);
    if (operationId === undefined || options.removed?.has(operationId)) {
      counts.unknownRoutes++;
      if (operationId !== undefined) tally(counts, `${operationId} called after its removal`).count++;
      return;
    }
    const fault = context.override?.fault ?? response.fault;
    const c = rowCounter(counts, operationId, fault !== undefined && fault !== 'truncated' ? fault : response.status);
    if (context.request.abandoned) {
      // Never read by the client, so not received: counted apart, and no variation or created pet comes of it;
      // a request the contract refuses was still sent.
      c.abandoned++;
      if (source === 'client' && (response.status === 400 || response.status === 401))
        noteInvalid(counts, context, operationId, response);
      return;
    }
    c.count++;
    c.bySource[source]++;
    if (source === 'client') clientDetails(context, operationId, response);
  }

  /** This coverage's own view: its counts, a session's older ones it still sees, a holder's sessions'. */
  function ownCounts(): Counts {
    const parts = older?.seenBy === 'own' ? [older.counts, counts] : [counts];
    if (retired) parts.push(retired);
    for (const feed of options.feeds?.() ?? []) parts.push(...feed.counts());
    return sumOf(since, parts);
  }

  return {
    record,
    report: () => buildReport(ownCounts(), operations, variationIds, options.removed),
    clear: () => {
      // The holder still sees what a session counted so far.
      if (options.held)
        older = { counts: older?.seenBy === 'holder' ? addCounts(older.counts, counts) : counts, seenBy: 'holder' };
      counts = emptyCounts();
      since = counts.since;
      variationsByQuery.clear();
      retired = undefined;
      for (const feed of options.feeds?.() ?? []) feed.holderCleared();
    },
    feed: {
      counts: () => (older?.seenBy === 'holder' ? [older.counts, counts] : [counts]),
      holderCleared: () => {
        // The session's own view goes on, the pets it created included (a read of one counts as fetched back).
        const created = counts.created;
        older = { counts: older?.seenBy === 'own' ? addCounts(older.counts, counts) : counts, seenBy: 'own' };
        counts = { ...emptyCounts(), created };
        variationsByQuery.clear();
      },
    },
    absorb: (feed) => {
      retired = feed.counts().reduce(addCounts, retired ?? emptyCounts());
    },
  };
}

/** One row per documented and forceable answer of every operation, then whatever else was answered. */
function responseRows(counts: Counts, operations: readonly OperationInfo[]): ResponseCoverage[] {
  const documented = new Map(operations.map((op) => [op.operationId, op.statuses]));
  const rows: ResponseCoverage[] = [];
  const seen = new Set<string>();
  for (const op of operations) {
    const ids = [
      ...(documented.get(op.operationId) ?? []).map((status) => ({ status, documented: true })),
      // The answers the mock can be made to give besides the documented ones (Prefer, scenarios, chaos, the rate limit).
      ...SERVICE_FAILURES.filter((s) => !(documented.get(op.operationId) ?? []).includes(s)).map((status) => ({
        status,
        documented: false,
      })),
    ];
    for (const { status, documented: isDocumented } of ids) {
      const id = `${op.operationId} ${status}`;
      seen.add(id);
      const c = counts.responses.get(id) ?? counter();
      rows.push({
        id,
        operationId: op.operationId,
        status,
        documented: isDocumented,
        count: c.count,
        bySource: c.bySource,
        abandoned: c.abandoned,
      });
    }
  }
  // Whatever else was answered (a fault, a 413, a 405 forced by a scenario): listed as received.
  for (const [id, c] of counts.responses) {
    if (seen.has(id)) continue;
    const [operationId, what] = id.split(' ') as [string, string];
    const fault = what.startsWith('fault=') ? what.slice('fault='.length) : undefined;
    rows.push({
      id,
      operationId,
      status: fault === undefined ? Number(what) : null,
      ...(fault === undefined ? {} : { fault }),
      documented: fault === undefined && (documented.get(operationId) ?? []).includes(Number(what)),
      count: c.count,
      bySource: c.bySource,
      abandoned: c.abandoned,
    });
  }
  return rows;
}

/** The deprecated operations' calls (received by any source, and after removal), sunset and replacement. */
function deprecatedUse(
  counts: Counts,
  operations: readonly OperationInfo[],
  rows: readonly ResponseCoverage[],
  removed: ReadonlySet<string> | undefined,
): CoverageReport['deprecated'] {
  return operations
    .filter((op) => op.deprecated)
    .map((op) => ({
      operationId: op.operationId,
      calls:
        SOURCES.reduce(
          (sum, s) => sum + rows.filter((r) => r.operationId === op.operationId).reduce((n, r) => n + r.bySource[s], 0),
          0,
        ) + (counts.variations.get(`${op.operationId} called after its removal`)?.count ?? 0),
      sunset: sunsetOf(op.operationId)?.toISOString().slice(0, 10) ?? '',
      replacement: replacementOf(op.extensions['x-replacement']),
      removed: removed?.has(op.operationId) === true,
    }));
}

/** The report of `counts`: copies, so that later requests do not change a report already given. */
function buildReport(
  counts: Counts,
  operations: readonly OperationInfo[],
  variationIds: readonly string[],
  removed: ReadonlySet<string> | undefined,
): CoverageReport {
  const rows = responseRows(counts, operations);
  return {
    since: counts.since,
    requests: counts.requests,
    responses: rows,
    neverReceived: rows.filter((r) => r.documented && r.count === 0).map((r) => r.id),
    variations: [
      ...variationIds.map((id) => ({ id, count: counts.variations.get(id)?.count ?? 0 })),
      ...[...counts.variations].filter(([id]) => !variationIds.includes(id)).map(([id, { count }]) => ({ id, count })),
    ],
    deprecated: deprecatedUse(counts, operations, rows, removed),
    invalidRequests: [...counts.invalid.values()].map((k) => ({ ...k, example: { ...k.example } })),
    unknownRoutes: counts.unknownRoutes,
  };
}

function replacementOf(operationId: unknown): string {
  const op = listOperations().find((o) => o.operationId === operationId);
  return op ? `${op.method} ${op.path} (${op.operationId}) with a status filter` : '';
}
