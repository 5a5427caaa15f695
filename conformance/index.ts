/**
 * The conformance suite's public entry: `runConformance(options)` runs every
 * selected case against a base URL and returns the report.
 */
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { listOperations } from '../spec/index.ts';
import { compareBaseline } from './baseline.ts';
import { allCases } from './cases/index.ts';
import { type Client, createClient, UNREACHABLE_CODES } from './client.ts';
import { createShared, namePrefix } from './context.ts';
import { buildCoverage } from './coverage.ts';
import { DEFAULT_SEED, type GenerationOutcome, generatedDeselected, generateForRun } from './generate/index.ts';
import { type Redactor, redactDeep } from './redact.ts';
import { runCases } from './runner.ts';
import { selectCases } from './select.ts';
import type { CaseResult, Report, Summary } from './types.ts';

export { parseBaseline } from './baseline.ts';
export { allCases } from './cases/index.ts';
export { DEFAULT_SEED, generatedChecks } from './generate/index.ts';
export { matchesPattern } from './select.ts';
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
  /** Generated requests per operation, after the fixed cases (default 0: none). */
  generate?: number;
  /** Seed of the generated requests (default DEFAULT_SEED): the same seed sends the same requests. */
  seed?: number;
  /** Every generated name carries the run prefix, and values that cannot (the empty name) are skipped (shared environments). */
  prefixNames?: boolean;
}

/** Why a run could not happen at all; `code` is stable. */
export class ConformanceError extends Error {
  readonly code:
    | 'PETSTORE_CONFORMANCE_BAD_OPTIONS'
    | 'PETSTORE_CONFORMANCE_UNREACHABLE'
    | 'PETSTORE_CONFORMANCE_KEY_REJECTED';
  constructor(code: ConformanceError['code'], message: string) {
    super(message);
    this.name = 'ConformanceError';
    this.code = code;
  }
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
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < min))
      throw badOptions(`${name} must be a positive integer, got ${v}`);
  }
  if (options.generate !== undefined && (!Number.isInteger(options.generate) || options.generate < 0))
    throw badOptions(`generate must be a non-negative integer, got ${options.generate}`);
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0 && options.seed < 2 ** 31))
    throw badOptions(`seed must be an integer from 0 to ${2 ** 31 - 1}, got ${options.seed}`);
  if (!options.generate && options.only?.length && options.only.every((p) => p.startsWith('generated')))
    throw badOptions('only generated cases are selected, but generate is 0: nothing would be tested');
  if (options.runId !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(options.runId))
    throw badOptions('runId may hold only letters, digits, _ and - (at most 40)');
}

async function preflight(client: Client, baseUrl: string): Promise<void> {
  const ex = await client.send({ method: 'GET', path: '/pets?limit=1' });
  if (ex.error && !ex.response && UNREACHABLE_CODES.has(ex.error.code)) {
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_UNREACHABLE',
      `cannot reach ${baseUrl}: ${ex.error.code} ${ex.error.message}`,
    );
  }
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

/**
 * A last pass over what a case captured (its reason, checks and exchanges), in case the key hid somewhere a
 * field-level redaction missed. Ids, titles, sections, coverage and the summary are the suite's own text:
 * a short key (say `k`) would otherwise turn `listPets.ok` into `listPets.o[REDACTED]`.
 */
function redactCaptured(r: CaseResult, redact: Redactor): CaseResult {
  return {
    ...r,
    ...(r.reason === undefined ? {} : { reason: redact(r.reason) }),
    checks: redactDeep(r.checks, redact, { keys: false }),
    exchanges: redactDeep(r.exchanges, redact, { keys: false }),
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
    // The user gave it, and may have put the key in it (userinfo, a path segment).
    baseUrl: f.client.redact(f.options.baseUrl),
    startedAt: new Date(f.started).toISOString(),
    durationMs: Date.now() - f.started,
    options: f.settings,
    cases: f.results.map((r) => redactCaptured(r, f.client.redact)),
    deselected: f.deselected,
    summary,
    coverage: buildCoverage(
      listOperations(),
      f.results,
      new URL(f.options.baseUrl).pathname.replace(/\/+$/, ''),
      f.generation?.statuses,
    ),
    created: { count: stats.created, ids: stats.createdIds, namePrefix: namePrefix(f.runId) },
    ...(baseline ? { baseline } : {}),
    seed: f.options.seed ?? DEFAULT_SEED,
    ...(f.generation ? { generation: f.generation.summary } : {}),
    ok: baseline ? baseline.unexpected.length === 0 : summary.failed === 0,
  };
  return report;
}

/** Runs the suite against `options.baseUrl`; throws a ConformanceError only when the run cannot happen at all. */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  validate(options);
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
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: settings.timeoutMs,
    connections: settings.concurrency,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  let results: CaseResult[];
  let generation: GenerationOutcome | undefined;
  try {
    await preflight(client, client.redact(options.baseUrl));
    const shared = createShared({ client, runId });
    results = await runCases(cases, { client, shared, runId, ...settings });
    generation = await generateForRun(options, { client, runId, ...settings });
    if (generation) results.push(...generation.results);
  } finally {
    await client.close();
  }
  const { stats } = client;
  if (stats.keyRequests > 0 && stats.keyRejected === stats.keyRequests) {
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_KEY_REJECTED',
      `the API key was rejected (401) on all ${stats.keyRequests} requests that sent it`,
    );
  }
  const deselected = all.length - cases.length + generatedDeselected(options);
  return buildReport({ options, runId, started, settings, results, deselected, client, generation });
}
