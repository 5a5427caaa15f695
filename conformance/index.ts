/**
 * The conformance suite's public entry: `runConformance(options)` runs every
 * selected case against a base URL and returns the report.
 */
import { ConformanceError } from './errors.ts';
import { outputRedactors } from './report/redact-report.ts';
import { runSuite } from './run/run.ts';
import { type ConformanceOptions, checkOptions } from './run/settings.ts';
import type { Report } from './types.ts';

export { allCases } from './cases/index.ts';
export { DurationError, formatDuration, parseDuration } from './client/duration.ts';
export { ConformanceError, type ConformanceErrorCode } from './errors.ts';
export { DEFAULT_SEED, generatedChecks } from './generate/index.ts';
export { parseBaseline } from './run/baseline.ts';
export { matchesPattern } from './run/select.ts';
export type { ConformanceOptions } from './run/settings.ts';
export type * from './types.ts';

/** A ConformanceError's line may quote the server or the base URL: it leaves with the key hidden. */
function hideKey(err: unknown, apiKey: unknown): unknown {
  if (!(err instanceof ConformanceError) || typeof apiKey !== 'string') return err;
  const hidden = new ConformanceError(err.code, outputRedactors([apiKey]).text(err.message));
  // The report, when the run had started, has its secrets hidden already (buildReport).
  if (err.report) hidden.report = err.report;
  return hidden;
}

/**
 * Runs the suite against `options.baseUrl`; throws a ConformanceError when the run cannot happen at all, or when it
 * ended early (the target went away, `maxTimeMs` passed): then its `report` holds what was judged before.
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const settings = checkOptions(options);
  try {
    return await runSuite(settings);
  } catch (err) {
    throw hideKey(err, settings.apiKey);
  }
}
