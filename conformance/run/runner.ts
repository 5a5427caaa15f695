/**
 * Runs cases: each in its own recording context, a bounded number at a time;
 * whatever a case throws becomes a failed check, never an escaped error.
 */

import { listOperations } from '../../spec/index.ts';
import { PROXY_ANSWERED } from '../client/proxy.ts';
import { caseOutcome, proxiedOutcome, throttledOutcome } from '../judge/verdict.ts';
import type { Case, CaseResult, CheckResult, Exchange } from '../types.ts';
import { type CaseContextOptions, createCaseContext } from './context.ts';
import { keepForReport } from './keep.ts';

/** Options of {@link runCases}. */
interface RunCasesOptions extends CaseContextOptions {
  concurrency: number;
  /** Called as each case ends, with how many have ended. */
  onResult?: (result: CaseResult, done: number) => void;
}

/**
 * A 5xx is a required failure wherever it appears (an advice case, a control request): one failed `no 5xx` check
 * per such answer that no failed check of the case already names.
 */
function serverErrors(exchanges: readonly Exchange[], checks: readonly CheckResult[]): CheckResult[] {
  const named = checks.filter((r) => !r.ok && r.name.endsWith('no 5xx')).length;
  return (
    exchanges
      // A 5xx the run's proxy made itself (a gateway error, a refusal) is not the server's.
      .filter((e) => (e.response?.status ?? 0) >= 500 && e.error?.code !== PROXY_ANSWERED)
      .slice(named)
      .map((e) => ({
        name: 'no 5xx',
        ok: false,
        message: `${e.request.method} ${e.request.url} answered ${e.response!.status}: a 5xx is a required failure wherever it appears`,
        required: true,
      }))
  );
}

/** Why a read-only run skips a case: every case of an operation that is not a GET, and any that could create. */
const READ_ONLY_SKIP = 'read-only: sends no POST';

let methods: Map<string, string> | undefined;
/** Whether a read-only run (GET only) can run `c`: its operation is a GET and it creates nothing. */
function readsOnly(c: Case): boolean {
  methods ??= new Map(listOperations().map((op) => [op.operationId, op.method]));
  return !c.writes && methods.get(c.operationId) === 'GET';
}

/** Runs one case and returns its result as data. */
async function runCase(c: Case, options: CaseContextOptions): Promise<CaseResult> {
  const base = {
    id: c.id,
    title: c.title,
    level: c.level,
    section: c.section,
    ...(c.basis === undefined ? {} : { basis: c.basis }),
    operationId: c.operationId,
    covers: c.covers,
  };
  if (options.readOnly && !readsOnly(c)) {
    return {
      ...base,
      outcome: 'skipped',
      reason: READ_ONLY_SKIP,
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
  const unjudged = { skip: rec.skipReason(), notApplicable: rec.notApplicableReason() };
  // An exchange that failed in transport (timeout, reset, body over the cap) never lets a case pass,
  // even when the checks it made happened to hold on what did arrive. (A case that skipped, say for want of
  // a created animal, stays skipped: the create's own case reports the failure; one whose control failed says why.)
  if (unjudged.skip === undefined && unjudged.notApplicable === undefined && rec.checks.every((r) => r.ok)) {
    for (const e of rec.exchanges) {
      if (e.error)
        rec.checks.push({
          name: 'transport',
          ok: false,
          message: `${e.request.method} ${e.request.url}: ${e.error.code}: ${e.error.message}`,
        });
    }
  }
  if (unjudged.skip === undefined) rec.checks.push(...serverErrors(rec.exchanges, rec.checks));
  const judged = caseOutcome(c, rec.checks, unjudged, options.strict);
  const { outcome, reason } = throttledOutcome(proxiedOutcome(judged, rec.exchanges), rec.exchanges);
  // Judged: what the report shows is all that is kept (the shared exchanges wait for the last case).
  for (const ex of rec.exchanges) if (!options.shared.holds(ex)) keepForReport(ex);
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
  for (const r of results) for (const ex of r.exchanges) keepForReport(ex);
  return results;
}
