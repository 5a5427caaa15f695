import { describe, expect, it } from 'vitest';
import { PROXY_ANSWERED } from '../client/proxy.ts';
import type { CaseResult } from '../types.ts';
import {
  caseOutcome,
  incompleteReason,
  proxiedOutcome,
  runOk,
  summarise,
  THROTTLED,
  throttledOutcome,
} from './verdict.ts';

const pass = { name: 'status', ok: true, message: '200' };
const fail = { name: 'status', ok: false, message: 'expected 200, got 500' };

describe('caseOutcome', () => {
  it('fails a required case on a failed check, warns an advice one unless strict, and never passes on no check', () => {
    expect(caseOutcome({ level: 'required' }, [pass, fail], {}, false)).toEqual({
      outcome: 'failed',
      reason: 'status: expected 200, got 500',
    });
    expect(caseOutcome({ level: 'advice' }, [fail], {}, false).outcome).toBe('warned');
    expect(caseOutcome({ level: 'advice' }, [fail], {}, true).outcome).toBe('failed');
    expect(caseOutcome({ level: 'required' }, [pass], { skip: 'read-only' }, false)).toEqual({
      outcome: 'skipped',
      reason: 'read-only',
    });
    expect(caseOutcome({ level: 'required' }, [], {}, false)).toEqual({
      outcome: 'failed',
      reason: 'the case recorded no checks',
    });
    expect(caseOutcome({ level: 'required' }, [pass], {}, false)).toEqual({ outcome: 'passed' });
  });

  it('a case whose control failed is not applicable, never passed; a failed check still fails it', () => {
    const na = { notApplicable: 'not applicable: the control GET /pets answered 400, not 200' };
    expect(caseOutcome({ level: 'required' }, [], na, false)).toEqual({
      outcome: 'notApplicable',
      reason: na.notApplicable,
    });
    expect(caseOutcome({ level: 'advice' }, [], na, false).outcome).toBe('notApplicable');
    expect(caseOutcome({ level: 'required' }, [fail], na, false).outcome).toBe('failed');
  });

  it('a required check (a 5xx) fails an advice case too, strict or not', () => {
    const serverError = { name: 'no 5xx', ok: false, message: 'server error 500', required: true as const };
    expect(caseOutcome({ level: 'advice' }, [pass, serverError], {}, false).outcome).toBe('failed');
    expect(caseOutcome({ level: 'advice' }, [fail], {}, false).outcome).toBe('warned');
  });
});

describe('summarise and runOk', () => {
  it('counts outcomes; the run is ok with no failure, or with a baseline, none outside it', () => {
    const results = ['passed', 'failed', 'warned', 'skipped', 'passed', 'notApplicable'].map(
      (outcome) => ({ outcome }) as CaseResult,
    );
    const summary = summarise(results);
    expect(summary).toEqual({ passed: 2, failed: 1, warned: 1, info: 0, skipped: 1, notApplicable: 1, total: 6 });
    expect(runOk(summary, undefined)).toBe(false);
    expect(runOk({ ...summary, failed: 0 }, undefined)).toBe(true);
    expect(runOk(summary, { known: ['a'], fixed: [], unexpected: [] })).toBe(true);
    expect(runOk(summary, { known: [], fixed: [], unexpected: ['a'] })).toBe(false);
  });
});

describe('incompleteReason', () => {
  const r = (level: 'required' | 'advice', outcome: CaseResult['outcome'], reason?: string): CaseResult =>
    ({ level, outcome, reason }) as CaseResult;
  it('a run in which no required case was judged is incomplete, however many advice cases passed', () => {
    const none = [r('required', 'notApplicable'), r('required', 'skipped'), r('advice', 'passed')];
    expect(incompleteReason(none)).toMatch(/no required case could be judged \(1 not applicable, the rest skipped\)/);
    expect(runOk(summarise(none), undefined, none)).toBe(false);
    const one = [...none, r('required', 'failed')];
    expect(incompleteReason(one)).toBeUndefined();
    expect(incompleteReason([...none, r('required', 'passed')])).toBeUndefined();
    expect(incompleteReason([r('required', 'passed'), r('required', 'skipped', `${THROTTLED}: 429`)])).toMatch(
      /1 required case\(s\) could not be judged: .*--rate N/,
    );
  });
});

describe('throttled is not failed', () => {
  const limited = { error: { code: 'PETSTORE_RATE_LIMITED', message: '429: the wait budget is spent' } };
  it('a failed case that met a 429 past the budget is not judged, with the reason and the hint', () => {
    expect(throttledOutcome({ outcome: 'failed', reason: 'status: expected 200, got 429' }, [limited])).toEqual({
      outcome: 'skipped',
      reason: `${THROTTLED}: 429: the wait budget is spent (spread the run with --rate N, or give it a larger --max-wait)`,
    });
  });
  it('leaves a real failure, and a pass, as they are', () => {
    expect(throttledOutcome({ outcome: 'failed', reason: 'x' }, [{}])).toEqual({ outcome: 'failed', reason: 'x' });
    expect(throttledOutcome({ outcome: 'passed' }, [limited])).toEqual({ outcome: 'passed' });
    // Advice judged on a 429 (expected 400, got 429) is not the server's either.
    expect(throttledOutcome({ outcome: 'warned', reason: 'status: expected 400, got 429' }, [limited]).outcome).toBe(
      'skipped',
    );
  });
});

describe("the proxy's own answer is not the server's", () => {
  const message = 'the proxy http://127.0.0.1:3128 answered 403 itself (X-Squid-Error: ERR_ACCESS_DENIED 0)';
  const answered = { error: { code: PROXY_ANSWERED, message } };
  it('a case that met it is not judged, whatever it would have been; a passed case stays passed', () => {
    const notJudged = { outcome: 'skipped', reason: `not judged: ${message}, not the server` };
    for (const outcome of ['failed', 'warned', 'notApplicable', 'skipped'] as const)
      expect(proxiedOutcome({ outcome, reason: 'prerequisite failed' }, [{}, answered])).toEqual(notJudged);
    expect(proxiedOutcome({ outcome: 'passed' }, [answered])).toEqual({ outcome: 'passed' });
    expect(proxiedOutcome({ outcome: 'failed', reason: 'x' }, [{}])).toEqual({ outcome: 'failed', reason: 'x' });
  });

  it('a required case it kept from being judged makes the run incomplete, saying so', () => {
    const results = [
      { level: 'required', outcome: 'passed' },
      { level: 'required', outcome: 'skipped', reason: `not judged: ${message}, not the server` },
    ] as CaseResult[];
    expect(incompleteReason(results)).toBe(
      `1 required case(s) could not be judged, the proxy answering for the server: ${message}, not the server; have the proxy let the requests through, or name the host in NO_PROXY`,
    );
    expect(runOk(summarise(results), undefined, results)).toBe(false);
  });
});
