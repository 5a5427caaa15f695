/**
 * A run, in the order it happens: the client, the first request (preflight),
 * the fixed cases, the generated checks, then the report. Each stage gets
 * from the settings and the stage before it what it needs.
 */

import { phaseOf } from '../cases/index.ts';
import { type Client, type ClientStats, createClient, RUN_ENDED, sentTheKey } from '../client/client.ts';
import { formatDuration } from '../client/duration.ts';
import { createRunHistory } from '../client/history.ts';
import { NEAR_KEYS, nearKey } from '../client/near-key.ts';
import { ConformanceError } from '../errors.ts';
import { type GenerationOutcome, runGeneration } from '../generate/index.ts';
import { buildReport } from '../report/build.ts';
import type { CaseResult, Report } from '../types.ts';
import { createShared, namePrefix } from './context.ts';
import { createExchangeRecorder } from './exchange-log.ts';
import { preflight } from './preflight.ts';
import { runCases } from './runner.ts';
import type { Settings } from './settings.ts';
import { waitUntilUp } from './wait.ts';

/**
 * Why the run tested nothing, or undefined: every request after the first failed in transport (the target answered
 * once, then went away), or the key was refused on every call. `afterFirst` is the stats when the first answered.
 */
function ranAtAll(client: Client, afterFirst: ClientStats): ConformanceError | undefined {
  const { stats } = client;
  const sent = stats.requests - afterFirst.requests;
  if (sent > 0 && stats.transportFailed - afterFirst.transportFailed === sent) {
    const first = stats.firstTransportError;
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TRANSPORT_FAILED',
      `the first request was answered, then all ${sent} others failed in transport (${first?.code}: ${first?.message}): is the server still up?`,
    );
  }
  if (stats.keyRequests > 0 && stats.keyRejected === stats.keyRequests) {
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_KEY_REJECTED',
      `the API key was rejected (401) on all ${stats.keyRequests} requests that sent it`,
    );
  }
  return undefined;
}

/**
 * A case the run's end cut short is not judged: skipped with the reason, never failed (the server did nothing
 * wrong) and never passed (it was not checked).
 */
function notJudgedAfterEnd(result: CaseResult, reason: string): CaseResult {
  if (!result.exchanges.some((ex) => ex.error?.code === RUN_ENDED)) return result;
  return { ...result, outcome: 'skipped', reason: `not judged: ${reason} before this case finished` };
}

/**
 * When the key was refused on every call, a 401 to a request that carried it says nothing about the server's
 * contract: a case judged on such an answer is not judged (a case that sent no key, or another key, still is).
 */
function notJudgedOnRejectedKey(result: CaseResult, reason: string): CaseResult {
  if (result.outcome === 'skipped' || result.outcome === 'notApplicable') return result;
  if (!result.exchanges.some((ex) => ex.response?.status === 401 && sentTheKey(ex))) return result;
  const { cause: _cause, consequence: _consequence, ...rest } = result;
  return { ...rest, outcome: 'skipped', reason: `not judged: ${reason}` };
}

/** Runs the stages against the settled settings and returns the report (key hidden). */
export async function runSuite(settings: Settings): Promise<Report> {
  const started = Date.now();
  const { cases } = settings.selection;
  const { runId, reported } = settings;
  const recorder = settings.exchangeLog ? createExchangeRecorder() : undefined;
  const end = new AbortController();
  const maxTime = `the run reached its time limit (maxTimeMs, --max-time ${formatDuration(settings.maxTimeMs)})`;
  const deadline = setTimeout(() => end.abort(new Error(maxTime)), settings.maxTimeMs);
  const history = createRunHistory(namePrefix(runId));
  const client = createClient({
    ...settings.client,
    history,
    endSignal: end.signal,
    ...(recorder ? { onExchange: recorder.record } : {}),
  });
  let results: CaseResult[] = [];
  let generation: GenerationOutcome | undefined;
  let stop: ConformanceError | undefined;
  try {
    if (settings.waitForMs > 0)
      await waitUntilUp({ client, baseUrl: settings.baseUrl, waitForMs: settings.waitForMs, signal: end.signal });
    await preflight({
      client,
      baseUrl: settings.baseUrl,
      timeoutMs: reported.timeoutMs,
      probeTls: settings.probeTls,
      proxy: settings.proxy,
      tls: settings.client.tls,
    });
    const afterFirst = { ...client.stats };
    let failed = 0;
    const onResult = (r: CaseResult, done: number): void => {
      if (r.outcome === 'failed') failed++;
      settings.onProgress?.({ done, total: cases.length, failed });
    };
    const shared = createShared({ client, runId });
    const nearKeys = NEAR_KEYS.filter((kind) => nearKey(settings.apiKey, kind) !== undefined);
    // The read-back runs after everything that creates; results keep the cases' order, generated ones after.
    const last = cases.filter((c) => phaseOf(c) === 'last');
    const alone = cases.filter((c) => phaseOf(c) === 'alone');
    results = await runCases(
      cases.filter((c) => phaseOf(c) === 'together'),
      { client, shared, runId, ...reported, nearKeys, onResult },
    );
    // One at a time, with nothing else sent meanwhile: the cases whose requests must see no write between them.
    const first = results.length;
    const onAlone = (r: CaseResult, done: number): void => onResult(r, first + done);
    results.push(
      ...(await runCases(alone, { client, shared, runId, ...reported, concurrency: 1, nearKeys, onResult: onAlone })),
    );
    // The read-back judges the fixed cases' animals: a generated sequence reads back its own (`fetchable`, `lost`)
    // and shrinks what it finds, so reading those again would give one root a second cause.
    const created = client.stats.creations.slice();
    if (settings.generation && !end.signal.aborted) {
      generation = await runGeneration(client, { ...settings.generation, ended: () => end.signal.aborted });
    }
    const before = results.length;
    const onLast = (r: CaseResult, done: number): void => onResult(r, before + done);
    results.push(
      ...(await runCases(last, { client, shared, runId, ...reported, nearKeys, created, onResult: onLast })),
    );
    if (generation) results.push(...generation.results);
    stop = end.signal.aborted
      ? new ConformanceError('PETSTORE_CONFORMANCE_MAX_TIME', `${maxTime}: the report holds what was judged before`)
      : ranAtAll(client, afterFirst);
  } catch (err) {
    // Only a ConformanceError (the first request showed the run cannot test the server) still gets its report.
    if (!(err instanceof ConformanceError)) {
      await client.close().catch(() => {});
      throw err;
    }
    stop = err;
  } finally {
    clearTimeout(deadline);
  }
  // The reason the run stopped is the error to see, not one from closing after it.
  await client.close().catch(() => {});
  if (end.signal.aborted) results = results.map((r) => notJudgedAfterEnd(r, maxTime));
  const rejected = stop?.code === 'PETSTORE_CONFORMANCE_KEY_REJECTED' ? stop.message : undefined;
  if (rejected) results = results.map((r) => notJudgedOnRejectedKey(r, rejected));
  const report = buildReport(settings, {
    started,
    results,
    client,
    history,
    generation,
    exchangeLog: recorder?.log(results),
    ...(stop ? { ended: { code: stop.code, reason: stop.message } } : {}),
  });
  if (!stop) return report;
  stop.report = report;
  throw stop;
}
