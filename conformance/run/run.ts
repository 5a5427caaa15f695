/**
 * A run, in the order it happens: the client, the first request (preflight),
 * the fixed cases, the generated checks, then the report. Each stage gets
 * from the settings and the stage before it what it needs.
 */
import { type Client, type ClientStats, createClient } from '../client/client.ts';
import { ConformanceError } from '../errors.ts';
import { type GenerationOutcome, runGeneration } from '../generate/index.ts';
import { buildReport } from '../report/build.ts';
import type { CaseResult, Report } from '../types.ts';
import { createShared } from './context.ts';
import { createJournal } from './journal.ts';
import { preflight } from './preflight.ts';
import { runCases } from './runner.ts';
import type { Settings } from './settings.ts';

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

/** Runs the stages against the settled settings and returns the report (key hidden). */
export async function runSuite(settings: Settings): Promise<Report> {
  const started = Date.now();
  const { cases } = settings.selection;
  const { runId, reported } = settings;
  const journal = settings.exchangeLog ? createJournal() : undefined;
  const client = createClient(journal ? { ...settings.client, onExchange: journal.record } : settings.client);
  let results: CaseResult[];
  let afterFirst: ClientStats;
  let generation: GenerationOutcome | undefined;
  try {
    await preflight({ client, baseUrl: settings.baseUrl, timeoutMs: reported.timeoutMs, probeTls: settings.probeTls });
    afterFirst = { ...client.stats };
    let failed = 0;
    const onResult = (r: CaseResult, done: number): void => {
      if (r.outcome === 'failed') failed++;
      settings.onProgress?.({ done, total: cases.length, failed });
    };
    const shared = createShared({ client, runId });
    results = await runCases(cases, { client, shared, runId, ...reported, onResult });
    generation = settings.generation ? await runGeneration(client, settings.generation) : undefined;
    if (generation) results.push(...generation.results);
  } catch (err) {
    // The reason the run stopped is the error to see, not one from closing after it.
    await client.close().catch(() => {});
    throw err;
  }
  await client.close();
  checkRanAtAll(client, afterFirst);
  return buildReport(settings, { started, results, client, generation, exchangeLog: journal?.log(results) });
}
