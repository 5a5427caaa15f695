/**
 * Judging: how a case ended, from the checks it recorded, and what the run's
 * results add up to (the counts and whether the run is ok). The checks of one
 * exchange are in checks.ts; the generated checks judge theirs in generate/results.ts.
 */
import type { BaselineResult, Case, CaseResult, CheckResult, Outcome, Summary } from '../types.ts';

/** How a case ended: a failed check fails a required case (any case when strict), else warns; no check fails it. */
export function caseOutcome(
  c: Pick<Case, 'level'>,
  checks: readonly CheckResult[],
  skipReason: string | undefined,
  strict: boolean,
): { outcome: Outcome; reason?: string } {
  const failed = checks.filter((r) => !r.ok);
  if (failed.length > 0) {
    const reason = failed.map((r) => `${r.name}: ${r.message}`).join('; ');
    return { outcome: c.level === 'required' || strict ? 'failed' : 'warned', reason };
  }
  if (skipReason !== undefined) return { outcome: 'skipped', reason: skipReason };
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
    skipped: count('skipped'),
    total: results.length,
  };
}

/** The reason a case gets when throttling, not the server's answer, kept it from being judged. */
export const THROTTLED = 'not judged: throttled';

/**
 * A failed case that met a 429/503 the wait budget could not cover was not judged: what failed may only be the
 * throttling. It is reported apart (skipped, with the reason and the hint), never as the server's failure.
 */
export function throttledOutcome(
  result: { outcome: Outcome; reason?: string },
  exchanges: readonly { error?: { code: string; message: string } }[],
): { outcome: Outcome; reason?: string } {
  if (result.outcome !== 'failed') return result;
  const limited = exchanges.find((e) => e.error?.code === 'PETSTORE_RATE_LIMITED');
  if (!limited) return result;
  return {
    outcome: 'skipped',
    reason: `${THROTTLED}: ${limited.error!.message} (spread the run with --rate N, or give it a larger --max-wait)`,
  };
}

/** The required cases throttling kept from being judged. */
export function throttledCases(results: readonly CaseResult[]): CaseResult[] {
  return results.filter((r) => r.outcome === 'skipped' && r.level === 'required' && r.reason?.startsWith(THROTTLED));
}

/** Whether the run is ok: no case failed (or, with a baseline, none outside it) and no required case went unjudged. */
export function runOk(
  summary: Summary,
  baseline: BaselineResult | undefined,
  results: readonly CaseResult[] = [],
): boolean {
  const failedOk = baseline ? baseline.unexpected.length === 0 : summary.failed === 0;
  return failedOk && throttledCases(results).length === 0;
}
