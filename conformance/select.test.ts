import { describe, expect, it } from 'vitest';
import { listOperations } from '../spec/index.ts';
import { allCases } from './cases/index.ts';
import { buildCoverage, compareBaseline, matchesPattern, parseBaseline, selectCases } from './select.ts';
import type { CaseResult } from './types.ts';

function result(id: string, outcome: CaseResult['outcome'], operationId = 'listPets', covers = [200]): CaseResult {
  return { id, title: id, level: 'required', section: 's', operationId, covers, outcome, checks: [], exchanges: [], durationMs: 0 };
}

describe('selection', () => {
  it('matches exact ids, prefixes at a dot, and * wildcards', () => {
    expect(matchesPattern('listPets', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.ok', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.o', 'listPets.ok')).toBe(false);
    expect(matchesPattern('auth.*.basic', 'auth.getPet.basic')).toBe(true);
    expect(matchesPattern('*.status.*', 'listPets.status.sold')).toBe(true);
    expect(matchesPattern('auth.*', 'listPets.ok')).toBe(false);
  });

  it('only keeps, skip removes', () => {
    const picked = selectCases(allCases(), { only: ['getPet'], skip: ['getPet.malformed'] }).map((c) => c.id);
    expect(picked).toContain('getPet.existing');
    expect(picked).not.toContain('getPet.malformed');
    expect(picked.every((id) => id.startsWith('getPet.'))).toBe(true);
  });
});

describe('coverage and baseline', () => {
  it('lists every documented status and ignores skipped cases', () => {
    const coverage = buildCoverage(listOperations(), [result('a', 'passed'), result('b', 'skipped'), result('c', 'failed', 'getPet', [404])]);
    expect(coverage.find((e) => e.operationId === 'listPets' && e.status === 200)?.caseIds).toEqual(['a']);
    expect(coverage.find((e) => e.operationId === 'getPet' && e.status === 404)?.caseIds).toEqual(['c']);
    expect(coverage.find((e) => e.operationId === 'listPets' && e.status === 401)?.caseIds).toEqual([]);
  });

  it('reads three baseline shapes and names fixed cases', () => {
    expect(parseBaseline(['a'])).toEqual(['a']);
    expect(parseBaseline({ knownFailures: ['a'] })).toEqual(['a']);
    expect(parseBaseline({ cases: [{ id: 'a', outcome: 'failed' }, { id: 'b', outcome: 'passed' }] })).toEqual(['a']);
    expect(() => parseBaseline({})).toThrow();
    const cmp = compareBaseline([result('a', 'failed'), result('b', 'passed'), result('c', 'failed')], ['a', 'b']);
    expect(cmp).toEqual({ known: ['a'], fixed: ['b'], unexpected: ['c'] });
  });
});
