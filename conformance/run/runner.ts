/**
 * Runs cases: each in its own recording context, a bounded number at a time;
 * whatever a case throws becomes a failed check, never an escaped error.
 */

import { caseOutcome, throttledOutcome } from '../judge/verdict.ts';
import type { Case, CaseResult } from '../types.ts';
import { type CaseContextOptions, createCaseContext } from './context.ts';

/** Options of {@link runCases}. */
export interface RunCasesOptions extends CaseContextOptions {
  concurrency: number;
  /** Called as each case ends, with how many have ended. */
  onResult?: (result: CaseResult, done: number) => void;
}

/** Runs one case and returns its result as data. */
export async function runCase(c: Case, options: CaseContextOptions): Promise<CaseResult> {
  const base = {
    id: c.id,
    title: c.title,
    level: c.level,
    section: c.section,
    operationId: c.operationId,
    covers: c.covers,
  };
  if (options.readOnly && c.writes) {
    return {
      ...base,
      outcome: 'skipped',
      reason: 'read-only: this case could create an animal',
      checks: [],
      exchanges: [],
      durationMs: 0,
    };
  }
  const started = performance.now();
  const rec = createCaseContext(options);
  try {
    await c.run(rec.ctx);
  } catch (err) {
    rec.checks.push({ name: 'case', ok: false, message: `the case threw: ${(err as Error)?.stack ?? String(err)}` });
  }
  // An exchange that failed in transport (timeout, reset, body over the cap) never lets a case pass,
  // even when the checks it made happened to hold on what did arrive. (A case that skipped, say for want of
  // a created animal, stays skipped: the create's own case reports the failure.)
  if (rec.skipReason() === undefined && rec.checks.every((r) => r.ok)) {
    for (const e of rec.exchanges) {
      if (e.error)
        rec.checks.push({
          name: 'transport',
          ok: false,
          message: `${e.request.method} ${e.request.url}: ${e.error.code}: ${e.error.message}`,
        });
    }
  }
  const { outcome, reason } = throttledOutcome(
    caseOutcome(c, rec.checks, rec.skipReason(), options.strict),
    rec.exchanges,
  );
  return {
    ...base,
    outcome,
    ...(reason === undefined ? {} : { reason }),
    checks: rec.checks,
    exchanges: rec.exchanges,
    durationMs: performance.now() - started,
  };
}

/** Runs `cases` at most `concurrency` at a time; results keep the order of `cases`. */
export async function runCases(cases: readonly Case[], options: RunCasesOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  async function worker(): Promise<void> {
    while (next < cases.length) {
      const i = next++;
      results[i] = await runCase(cases[i]!, options);
      options.onResult?.(results[i]!, ++done);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, cases.length)) }, worker));
  return results;
}
