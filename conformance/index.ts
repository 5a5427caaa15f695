/**
 * The conformance suite's public entry: `runConformance(options)` runs every
 * selected case against a base URL and returns the report.
 */
import { ConformanceError } from './errors.ts';
import { outputRedactors } from './report/redact-report.ts';
import { runSuite } from './run/run.ts';
import { type ConformanceOptions, checkOptions, secretsOf } from './run/settings.ts';
import type { Report } from './types.ts';

export { allCases } from './cases/index.ts';
export { formatDuration, parseDuration } from './client/duration.ts';
export {
  ConformanceError,
  type ConformanceErrorCode,
  EXCHANGE_ERROR_CODES,
  type ExchangeErrorCode,
} from './errors.ts';
export { DEFAULT_GENERATION_SEED, generatedProperties } from './generate/index.ts';
export { REPORTERS, type Reporter, type ReporterName, render as renderReport } from './report/index.ts';
export { type ReportNotWritten, type ReportTarget, type WriteReportsOptions, writeReports } from './report/targets.ts';
export { parseBaseline } from './run/baseline.ts';
export { matchesPattern } from './run/select.ts';
export type { ConformanceOptions } from './run/settings.ts';
export { judgeTraffic } from './traffic/judge-traffic.ts';
export type { TrafficOptions } from './traffic/options.ts';
export type * from './types.ts';

/**
 * A ConformanceError's line may quote the server, an option or the base URL: it leaves with every secret of the
 * run hidden (secretsOf: the key, header values, proxy and base-URL credentials). Any other error is a bug of the
 * suite, and leaves as a ConformanceError-free Error with its message hidden the same way.
 */
function hideSecrets(err: unknown, secrets: readonly string[]): unknown {
  const text = outputRedactors(secrets).text;
  if (!(err instanceof ConformanceError)) {
    if (err instanceof Error) err.message = text(err.message);
    return err;
  }
  const problem = err.problem === undefined ? undefined : text(err.problem);
  const hidden = new ConformanceError(
    err.code,
    text(err.message),
    err.option === undefined ? undefined : { option: err.option, ...(problem === undefined ? {} : { problem }) },
  );
  // The report, when the run had started, has its secrets hidden already (buildReport).
  if (err.report) hidden.report = err.report;
  return hidden;
}

/**
 * Runs the suite against `options.baseUrl`; throws a ConformanceError when the run cannot happen at all, or when it
 * ended early (the target went away, `maxTimeMs` passed): then its `report` holds what was judged before.
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  let settings: ReturnType<typeof checkOptions>;
  try {
    settings = checkOptions(options);
  } catch (err) {
    throw hideSecrets(err, secretsOf(options));
  }
  try {
    return await runSuite(settings);
  } catch (err) {
    throw hideSecrets(err, settings.secrets);
  }
}
