/**
 * The conformance suite's public entry: `runConformance(options)` runs every
 * selected case against a base URL and returns the report.
 */
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { listOperations } from '../spec/index.ts';
import { allCases } from './cases/index.ts';
import { type Client, type ClientStats, createClient } from './client/client.ts';
import { canRequest, undici } from './client/undici.ts';
import { ConformanceError } from './errors.ts';
import {
  DEFAULT_SEED,
  type GenerationOutcome,
  generatedDeselected,
  generatedSelection,
  generateForRun,
} from './generate/index.ts';
import { buildCoverage } from './report/coverage.ts';
import { outputRedactors, redactReport } from './report/redact-report.ts';
import { compareBaseline } from './run/baseline.ts';
import { createShared, namePrefix } from './run/context.ts';
import { checkSelection, preflight } from './run/preflight.ts';
import { runCases } from './run/runner.ts';
import { selectCases } from './run/select.ts';
import type { CaseResult, Progress, Report, Summary } from './types.ts';

export { allCases } from './cases/index.ts';
export { DurationError, formatDuration, parseDuration } from './client/duration.ts';
export { ConformanceError, type ConformanceErrorCode } from './errors.ts';
export { DEFAULT_SEED, generatedChecks } from './generate/index.ts';
export { parseBaseline } from './run/baseline.ts';
export { matchesPattern } from './run/select.ts';
export type * from './types.ts';

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Inject the HTTP client (an undici Agent is used and closed otherwise). */
  dispatcher?: Dispatcher;
  /** Per-request timeout in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Cases run at once (default 8). */
  concurrency?: number;
  /** Case ids or patterns to run (all when empty). */
  only?: string[];
  /** Case ids or patterns to leave out. */
  skip?: string[];
  /** Skip every case that could create an animal. */
  readOnly?: boolean;
  /** Advice becomes failure; Pet bodies may carry no fields beyond the spec. */
  strict?: boolean;
  /** Names created animals `conformance-<runId>-...` (default: random). */
  runId?: string;
  /** Case ids known to fail: the report is ok while only these fail. */
  baseline?: string[];
  /** Response bodies longer than this fail their case (default 1 MiB). */
  maxBodyBytes?: number;
  /** Wall-clock time the run may spend waiting on 429/503 `Retry-After`, in all (default 60000). */
  maxWaitMs?: number;
  /** At most this many requests per second (default: no cap). */
  ratePerSecond?: number;
  /** Called after each case, for a progress line. */
  onProgress?: (progress: Progress) => void;
  /** Generated requests per operation, after the fixed cases (default 0: none). */
  generate?: number;
  /** Seed of the generated requests (default DEFAULT_SEED): the same seed sends the same requests. */
  seed?: number;
  /** Every generated name carries the run prefix, and values that cannot (the empty name) are skipped (shared environments). */
  prefixNames?: boolean;
}

function badOptions(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message);
}

function validate(options: ConformanceOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw badOptions(`base URL is not a URL: ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badOptions(`base URL must be http or https: ${url.protocol}`);
  if (url.search || url.hash) throw badOptions('base URL must not have a query or fragment');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw badOptions('an API key is required');
  for (const [name, v, min] of [
    ['timeoutMs', options.timeoutMs, 1],
    ['concurrency', options.concurrency, 1],
    ['maxWaitMs', options.maxWaitMs, 0],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < min))
      throw badOptions(`${name} must be an integer of at least ${min}, got ${v}`);
  }
  if (options.ratePerSecond !== undefined && !(options.ratePerSecond > 0))
    throw badOptions(`ratePerSecond must be more than 0, got ${options.ratePerSecond}`);
  if (options.generate !== undefined && (!Number.isInteger(options.generate) || options.generate < 0))
    throw badOptions(`generate must be a non-negative integer, got ${options.generate}`);
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0 && options.seed < 2 ** 31))
    throw badOptions(`seed must be an integer from 0 to ${2 ** 31 - 1}, got ${options.seed}`);
  if (!options.generate && options.only?.length && options.only.every((p) => p.startsWith('generated')))
    throw badOptions('only generated cases are selected, but generate is 0: nothing would be tested');
  if (options.runId !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(options.runId))
    throw badOptions('runId may hold only letters, digits, _ and - (at most 40)');
  if (options.dispatcher === undefined && !canRequest(undici.Agent.prototype))
    throw badOptions(
      "this runtime's undici cannot send requests (its Agent has no request()): run the suite on Node, Bun or Deno",
    );
  if (options.dispatcher !== undefined && !canRequest(options.dispatcher))
    throw badOptions(
      "the dispatcher has no request() method (on Bun, 'undici' is Bun's stand-in and its dispatchers cannot send): run the suite against a base URL instead, e.g. a mock from startMockServer",
    );
}

function summarise(results: readonly CaseResult[]): Summary {
  const count = (o: CaseResult['outcome']): number => results.filter((r) => r.outcome === o).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    warned: count('warned'),
    skipped: count('skipped'),
    total: results.length,
  };
}

interface RunFacts {
  options: ConformanceOptions;
  runId: string;
  started: number;
  settings: Report['options'];
  results: CaseResult[];
  deselected: number;
  client: Client;
  generation: GenerationOutcome | undefined;
}

function buildReport(f: RunFacts): Report {
  const baseline = f.options.baseline ? compareBaseline(f.results, f.options.baseline) : undefined;
  const summary = summarise(f.results);
  const { stats } = f.client;
  const report: Report = {
    tool: 'petstore-conformance',
    runId: f.runId,
    baseUrl: f.options.baseUrl,
    startedAt: new Date(f.started).toISOString(),
    durationMs: Date.now() - f.started,
    options: f.settings,
    cases: f.results,
    deselected: f.deselected,
    summary,
    coverage: buildCoverage(
      listOperations(),
      f.results,
      new URL(f.options.baseUrl).pathname.replace(/\/+$/, ''),
      f.generation?.statuses,
    ),
    created: { count: stats.created, ids: stats.createdIds, namePrefix: namePrefix(f.runId) },
    throttling: { ...f.client.throttleStats },
    ...(baseline ? { baseline } : {}),
    seed: f.options.seed ?? DEFAULT_SEED,
    ...(f.generation ? { generation: f.generation.summary } : {}),
    ok: baseline ? baseline.unexpected.length === 0 : summary.failed === 0,
  };
  // The one place the key is hidden: the checks have read everything as the server sent it.
  const url = new URL(f.options.baseUrl);
  return redactReport(report, url.origin + url.pathname.replace(/\/+$/, ''), outputRedactors([f.options.apiKey]));
}

/**
 * Throws when the run tested nothing: every request after the first failed in transport (the target answered
 * once, then went away), or the key was refused on every call. `afterFirst` is the stats when the first answered.
 */
function checkRanAtAll(client: Client, afterFirst: ClientStats): void {
  const { stats } = client;
  const sent = stats.requests - afterFirst.requests;
  if (sent > 0 && stats.transportFailed - afterFirst.transportFailed === sent) {
    const first = stats.firstTransportError;
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_TRANSPORT_FAILED',
      `the first request was answered, then all ${sent} others failed in transport (${first?.code}: ${first?.message}): is the server still up?`,
    );
  }
  if (stats.keyRequests > 0 && stats.keyRejected === stats.keyRequests) {
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_KEY_REJECTED',
      `the API key was rejected (401) on all ${stats.keyRequests} requests that sent it`,
    );
  }
}

function clientFor(options: ConformanceOptions, settings: Report['options']): Client {
  return createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: settings.timeoutMs,
    connections: settings.concurrency,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    throttle: {
      ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
      ...(options.ratePerSecond === undefined ? {} : { ratePerSecond: options.ratePerSecond }),
    },
  });
}

/** A ConformanceError's line may quote the server or the base URL: it leaves with the key hidden. */
function hideKey(err: unknown, apiKey: string): unknown {
  if (!(err instanceof ConformanceError)) return err;
  return new ConformanceError(err.code, outputRedactors([apiKey]).text(err.message));
}

/** Runs the suite against `options.baseUrl`; throws a ConformanceError only when the run cannot happen at all. */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  validate(options);
  try {
    return await runSuite(options);
  } catch (err) {
    throw hideKey(err, options.apiKey);
  }
}

async function runSuite(options: ConformanceOptions): Promise<Report> {
  const started = Date.now();
  const runId = options.runId ?? randomBytes(4).toString('hex');
  const settings = {
    strict: options.strict ?? false,
    readOnly: options.readOnly ?? false,
    concurrency: options.concurrency ?? 8,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
  const all = allCases();
  const cases = selectCases(all, { only: options.only ?? [], skip: options.skip ?? [] });
  checkSelection(all, cases, options.only ?? [], options.skip ?? [], generatedSelection(options));
  const client = clientFor(options, settings);
  let results: CaseResult[];
  let afterFirst: ClientStats;
  let generation: GenerationOutcome | undefined;
  try {
    await preflight({ client, baseUrl: options.baseUrl, timeoutMs: settings.timeoutMs, probeTls: !options.dispatcher });
    afterFirst = { ...client.stats };
    let failed = 0;
    const onResult = (r: CaseResult, done: number): void => {
      if (r.outcome === 'failed') failed++;
      options.onProgress?.({ done, total: cases.length, failed });
    };
    const shared = createShared({ client, runId });
    results = await runCases(cases, { client, shared, runId, ...settings, onResult });
    generation = await generateForRun(options, { client, runId, ...settings });
    if (generation) results.push(...generation.results);
  } catch (err) {
    // The reason the run stopped is the error to see, not one from closing after it.
    await client.close().catch(() => {});
    throw err;
  }
  await client.close();
  checkRanAtAll(client, afterFirst);
  const deselected = all.length - cases.length + generatedDeselected(options);
  return buildReport({ options, runId, started, settings, results, deselected, client, generation });
}
