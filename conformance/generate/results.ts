/**
 * The search's findings as case results, one per generated property, reported
 * like a fixed case: failed with the shrunk requests and the seed to replay
 * it, warned with a first example (advice), passed with how often it held, or
 * skipped when no generated request exercised it.
 */
import type { JudgedCase } from '../judge/consequences.ts';
import { THROTTLED } from '../judge/verdict.ts';
import type { CaseResult, CheckResult } from '../types.ts';
import { plural } from '../words.ts';
import type { GeneratedProperty } from './catalog.ts';
import type { Failure, SearchResult } from './search.ts';

/** What the results need besides the search. */
export interface ResultsOptions {
  seed: number;
  requests: number;
  strict: boolean;
  readOnly: boolean;
  /** Animals the generated requests created. */
  created: number;
}

function failedResult(
  base: Omit<CaseResult, 'outcome' | 'checks' | 'exchanges' | 'durationMs'>,
  failure: Failure,
  s: SearchResult,
  o: ResultsOptions,
): JudgedCase {
  const { result } = failure.finding;
  const { failed, of } = failure.replays;
  const intermittent = failed < of;
  // "reproduced 3/3", or "intermittent: 2 of 4" (the first time counts).
  const replayed = intermittent ? `intermittent: ${failed + 1} of ${of + 1}` : `reproduced ${failed}/${of}`;
  const sh = failure.shrinking;
  const shrunk = intermittent
    ? `not shrunk (a flaky answer shrinks to unrelated requests): these are the ${plural(failure.exchanges.length, 'request')} that got it`
    : `shrunk to ${plural(failure.exchanges.length, 'request')} in ${plural(failure.shrinks, 'step')}${sh ? `, ${plural(sh.requests, 'request')} and ${(sh.ms / 1000).toFixed(1)} s spent${sh.stoppedAtBudget ? ' (stopped at the budget: the smallest so far)' : ''}` : ''}`;
  // Information about the failure (how it repeated, how it shrank), not a second verdict: never drawn as failed.
  const replay: CheckResult = {
    name: 'replay',
    ok: true,
    info: true,
    message: `${replayed}; ${shrunk}; the same run again: --generate ${o.requests} --seed ${o.seed}`,
  };
  return {
    ...base,
    outcome: 'failed',
    reason: `${result.name}: ${result.variation ? `${result.variation}: ` : ''}${result.message} (seed ${o.seed}, ${replayed}, ${intermittent ? `${plural(failure.exchanges.length, 'request')} as sent` : `shrunk to ${plural(failure.exchanges.length, 'request')}`})`,
    checks: [result, replay],
    exchanges: failure.exchanges,
    ...(base.id.endsWith('.invalidRefused') && s.letIn.size > 0 ? { letIn: [...s.letIn] } : {}),
    durationMs: 0,
  };
}

function skipReason(property: GeneratedProperty, o: ResultsOptions): string {
  if (o.readOnly && property.operationId === 'createPet') return 'read-only: generated creates are not sent';
  if (property.id.endsWith('.lost') || property.id.endsWith('.listed'))
    return 'no generated sequence had an animal to look for here (or no complete list)';
  return 'no generated request exercised it';
}

/**
 * Each distinct failure of a check as a result of its own: the first under the check's id, the next ones under
 * `<id>.2`, `<id>.3`, … with the rule each broke in the title (a selection of the check still takes them all).
 */
function failedResults(
  base: Omit<CaseResult, 'outcome' | 'checks' | 'exchanges' | 'durationMs'>,
  failures: Failure[],
  s: SearchResult,
  o: ResultsOptions,
): CaseResult[] {
  return failures.map((f, i) => {
    const rule = f.finding.result.rule;
    const title = rule === undefined || failures.length === 1 ? base.title : `${base.title}: ${rule}`;
    return failedResult({ ...base, id: i === 0 ? base.id : `${base.id}.${i + 1}`, title }, f, s, o);
  });
}

/** One case result per selected generated property, and one more per further distinct failure of a property. */
export function generatedResults(
  properties: readonly GeneratedProperty[],
  s: SearchResult,
  o: ResultsOptions,
): CaseResult[] {
  return properties.flatMap((c): CaseResult | CaseResult[] => {
    const base = {
      id: c.id,
      title: c.title,
      level: c.level,
      section: c.section,
      ...(c.basis === undefined ? {} : { basis: c.basis }),
      operationId: c.operationId,
      covers: [],
    };
    const failures = [...s.failures.values()].filter((f) => f.finding.id === c.id);
    if (failures.length > 0) return failedResults(base, failures, s, o);
    const held = s.held.get(c.id) ?? 0;
    const failed = s.failedCount.get(c.id) ?? 0;
    const example = s.advice.get(c.id);
    if (example) {
      const { result } = example.finding;
      return {
        ...base,
        // Information is never a failure, --strict included; advice fails only under --strict.
        outcome: c.level === 'info' ? 'info' : o.strict ? 'failed' : 'warned',
        reason: `${result.name}: ${result.variation ? `${result.variation}: ` : ''}${result.message} (${failed} of ${failed + held} generated requests; seed ${o.seed})`,
        checks: [result],
        exchanges: example.exchanges,
        durationMs: 0,
      };
    }
    if (held === 0 && s.throttled > 0)
      return {
        ...base,
        outcome: 'skipped',
        reason: `${THROTTLED}: ${plural(s.throttled, 'generated sequence')} met ${s.firstThrottled} (spread the run with --rate N, or give it a larger --max-wait)`,
        checks: [],
        exchanges: [],
        durationMs: 0,
      };
    if (held === 0 && s.proxied > 0)
      return {
        ...base,
        outcome: 'skipped',
        reason: `not judged: ${s.firstProxied}, not the server (in ${plural(s.proxied, 'generated sequence')})`,
        checks: [],
        exchanges: [],
        durationMs: 0,
      };
    if (held === 0 && !o.readOnly && (c.id.endsWith('.lost') || c.id.endsWith('.listed')))
      return {
        ...base,
        outcome: 'notApplicable',
        reason:
          o.created === 0
            ? 'not applicable: the generated requests created no animal (every generated create was refused), so there was none to look for'
            : `not applicable: no generated sequence looked for one of the ${plural(o.created, 'animal')} it created ${c.id.endsWith('.listed') ? 'in a complete list' : 'after a later request'}`,
        checks: [],
        exchanges: [],
        durationMs: 0,
      };
    if (held === 0)
      return { ...base, outcome: 'skipped', reason: skipReason(c, o), checks: [], exchanges: [], durationMs: 0 };
    return {
      ...base,
      outcome: 'passed',
      checks: [
        { name: 'generated', ok: true, message: `held for ${plural(held, 'generated check')} (seed ${o.seed})` },
      ],
      exchanges: [],
      durationMs: 0,
    };
  });
}
