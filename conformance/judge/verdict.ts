/**
 * Judging: how a case ended, from the checks it recorded, and what the run's
 * results add up to (the counts and whether the run is ok). The checks of one
 * exchange are in checks.ts; the generated checks judge theirs in generate/results.ts.
 */
import { PROXY_ANSWERED } from '../client/proxy.ts';
import { RATE_LIMITED } from '../client/throttle.ts';
import type { BaselineResult, Case, CaseResult, CheckResult, Outcome, Summary } from '../types.ts';

/** Why a case did not judge: skipped (a prerequisite, read-only), or not applicable (its control failed). */
export interface Unjudged {
  skip?: string;
  notApplicable?: string;
}

/**
 * How a case ended: a failed check fails a required case (an advice case too when strict, and any case when the
 * check is `required`, as a 5xx is; not a `warnOnly` one), else warns an advice case and notes an information case (never a failure,
 * strict or not: it has no basis to prefer one answer); a case that recorded no check fails.
 */
export function caseOutcome(
  c: Pick<Case, 'level' | 'warnOnly'>,
  checks: readonly CheckResult[],
  unjudged: Unjudged,
  strict: boolean,
): { outcome: Outcome; reason?: string } {
  const failed = checks.filter((r) => !r.ok);
  if (failed.length > 0) {
    const reason = failed.map((r) => `${r.name}: ${r.message}`).join('; ');
    if (failed.some((r) => r.required) || c.level === 'required') return { outcome: 'failed', reason };
    if (c.level === 'info') return { outcome: 'info', reason };
    return { outcome: strict && !c.warnOnly ? 'failed' : 'warned', reason };
  }
  if (unjudged.skip !== undefined) return { outcome: 'skipped', reason: unjudged.skip };
  if (unjudged.notApplicable !== undefined) return { outcome: 'notApplicable', reason: unjudged.notApplicable };
  // A case that checked nothing proves nothing.
  if (checks.length === 0) return { outcome: 'failed', reason: 'the case recorded no checks' };
  return { outcome: 'passed' };
}

/** Counts of outcomes. */
export function summarise(results: readonly CaseResult[]): Summary {
  const count = (o: CaseResult['outcome']): number => results.filter((r) => r.outcome === o).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    warned: count('warned'),
    info: count('info'),
    skipped: count('skipped'),
    notApplicable: count('notApplicable'),
    total: results.length,
  };
}

/** The reason a case gets when throttling, not the server's answer, kept it from being judged. */
export const THROTTLED = 'not judged: throttled';

/**
 * A failed case that met a 429/503 the wait budget could not cover was not judged: what failed may only be the
 * throttling (and a case whose control was throttled is not "not applicable" either). It is reported apart
 * (skipped, with the reason and the hint), never as the server's failure.
 */
export function throttledOutcome(
  result: { outcome: Outcome; reason?: string },
  exchanges: readonly { error?: { code: string; message: string } }[],
): { outcome: Outcome; reason?: string } {
  // Advice judged on a 429 is no more the server's than a failure is.
  const judged: Outcome[] = ['failed', 'notApplicable', 'warned', 'info'];
  if (!judged.includes(result.outcome)) return result;
  const limited = exchanges.find((e) => e.error?.code === RATE_LIMITED);
  if (!limited) return result;
  return {
    outcome: 'skipped',
    reason: `${THROTTLED}: ${limited.error!.message} (spread the run with --rate N, or give it a larger --max-wait)`,
  };
}

/** The start of the reason a case gets when the run's proxy answered one of its requests itself. */
export const PROXIED = 'not judged: the proxy';

/**
 * A case that did not pass and met an answer the run's proxy made itself (a refusal, a gateway error) was not
 * judged: what it read, its control's answer or its prerequisite's, was not the server's. It is reported apart, as
 * throttling is (and a case never passes on such an answer: it is an exchange with an error).
 */
export function proxiedOutcome(
  result: { outcome: Outcome; reason?: string },
  exchanges: readonly { error?: { code: string; message: string } }[],
): { outcome: Outcome; reason?: string } {
  if (result.outcome === 'passed') return result;
  const answered = exchanges.find((e) => e.error?.code === PROXY_ANSWERED);
  if (!answered) return result;
  return { outcome: 'skipped', reason: `not judged: ${answered.error!.message}, not the server` };
}

/** The required cases throttling kept from being judged. */
export function throttledCases(results: readonly CaseResult[]): CaseResult[] {
  return results.filter((r) => r.outcome === 'skipped' && r.level === 'required' && r.reason?.startsWith(THROTTLED));
}

/** Whether some required case was judged: passed or failed on what the server answered. */
export function judgedRequired(results: readonly CaseResult[]): number {
  return results.filter((r) => r.level === 'required' && (r.outcome === 'passed' || r.outcome === 'failed')).length;
}

/**
 * Why the run could not test what it was asked to, when nothing failed: required cases throttled or answered by the
 * proxy, or no required
 * case judged at all (every one skipped or not applicable). Undefined when it could.
 */
export function incompleteReason(results: readonly CaseResult[]): string | undefined {
  const throttled = throttledCases(results);
  if (throttled.length > 0)
    return `${throttled.length} required case(s) could not be judged: the server kept answering 429/503 past the --max-wait budget; spread the run with --rate N or give it a larger --max-wait`;
  const proxied = results.filter(
    (r) => r.outcome === 'skipped' && r.level === 'required' && r.reason?.startsWith(PROXIED),
  );
  if (proxied.length > 0)
    return `${proxied.length} required case(s) could not be judged, the proxy answering for the server: ${proxied[0]!.reason!.slice('not judged: '.length)}; have the proxy let the requests through, or name the host in NO_PROXY`;
  if (results.length > 0 && judgedRequired(results) === 0) {
    const na = results.filter((r) => r.level === 'required' && r.outcome === 'notApplicable').length;
    return `no required case could be judged (${na} not applicable, the rest skipped): nothing was tested`;
  }
  return undefined;
}

/** Whether the run is ok: no case failed (or, with a baseline, none outside it) and it could test what it was asked to. */
export function runOk(
  summary: Summary,
  baseline: BaselineResult | undefined,
  results: readonly CaseResult[] = [],
): boolean {
  const failedOk = baseline ? baseline.unexpected.length === 0 : summary.failed === 0;
  return failedOk && incompleteReason(results) === undefined;
}
