import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../types.ts';
import { caseOutcome, runOk, summarise, THROTTLED, throttledOutcome } from './verdict.ts';

const pass = { name: 'status', ok: true, message: '200' };
const fail = { name: 'status', ok: false, message: 'expected 200, got 500' };

describe('caseOutcome', () => {
  it('fails a required case on a failed check, warns an advice one unless strict, and never passes on no check', () => {
    expect(caseOutcome({ level: 'required' }, [pass, fail], undefined, false)).toEqual({
      outcome: 'failed',
      reason: 'status: expected 200, got 500',
    });
    expect(caseOutcome({ level: 'advice' }, [fail], undefined, false).outcome).toBe('warned');
    expect(caseOutcome({ level: 'advice' }, [fail], undefined, true).outcome).toBe('failed');
    expect(caseOutcome({ level: 'required' }, [pass], 'read-only', false)).toEqual({
      outcome: 'skipped',
      reason: 'read-only',
    });
    expect(caseOutcome({ level: 'required' }, [], undefined, false)).toEqual({
      outcome: 'failed',
      reason: 'the case recorded no checks',
    });
    expect(caseOutcome({ level: 'required' }, [pass], undefined, false)).toEqual({ outcome: 'passed' });
  });
});

describe('summarise and runOk', () => {
  it('counts outcomes; the run is ok with no failure, or with a baseline, none outside it', () => {
    const results = ['passed', 'failed', 'warned', 'skipped', 'passed'].map((outcome) => ({ outcome }) as CaseResult);
    const summary = summarise(results);
    expect(summary).toEqual({ passed: 2, failed: 1, warned: 1, skipped: 1, total: 5 });
    expect(runOk(summary, undefined)).toBe(false);
    expect(runOk({ ...summary, failed: 0 }, undefined)).toBe(true);
    expect(runOk(summary, { known: ['a'], fixed: [], unexpected: [] })).toBe(true);
    expect(runOk(summary, { known: [], fixed: [], unexpected: ['a'] })).toBe(false);
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
  });
});
