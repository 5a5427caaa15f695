import { describe, expect, it } from 'vitest';
import { classify, type MutantOutcome, originalText } from './classify.ts';
import type { Equivalent } from './equivalents.ts';

const SOURCE = ['function f(a) {', "  if (a < 1) return error('a must be 1 or more');", '  return a;', '}'].join('\n');

function mutant(id: string, status: string, mutatorName: string, col: [number, number], replacement: string) {
  return {
    id,
    fileName: 'mock/core/f.ts',
    mutatorName,
    replacement,
    status,
    location: { start: { line: 2, column: col[0] }, end: { line: 2, column: col[1] } },
  } satisfies MutantOutcome;
}

const MESSAGE = mutant('1', 'Survived', 'StringLiteral', [27, 48], '""');
const BOUND = mutant('2', 'Survived', 'EqualityOperator', [7, 12], 'a <= 1');
const KILLED = mutant('3', 'Killed', 'ConditionalExpression', [7, 12], 'true');
const TIMEOUT = mutant('4', 'Timeout', 'ConditionalExpression', [7, 12], 'false');

describe('classifying a run', () => {
  it("reads the mutated text at Stryker's location (lines and columns from 1)", () => {
    expect(originalText(SOURCE, MESSAGE.location)).toBe("'a must be 1 or more'");
    expect(originalText(SOURCE, BOUND.location)).toBe('a < 1');
  });

  it('counts the raw score over every mutant and the adjusted one over those the list does not explain', () => {
    const list: Equivalent[] = [
      { file: 'mock/core/f.ts', mutator: 'StringLiteral', code: 'must be', kind: 'message', reason: 'free text' },
      { file: 'mock/core/f.ts', code: 'never there', kind: 'fast path', reason: 'stale' },
    ];
    const s = classify([MESSAGE, BOUND, KILLED, TIMEOUT], () => SOURCE, list);
    expect([s.total, s.killed, s.survived, s.equivalent]).toEqual([4, 2, 2, 1]);
    expect(s.raw).toBe(50);
    expect(s.adjusted).toBe(66.67);
    // The bound is no message: it stays a gap, whatever entry sits on its line.
    expect(s.unexplained.map((u) => u.original)).toEqual(['a < 1']);
    expect(s.unused.map((e) => e.code)).toEqual(['never there']);
  });

  it('an entry with a replacement explains only that mutant of its code', () => {
    const list: Equivalent[] = [
      { file: 'mock/core/f.ts', code: 'a < 1', replacement: 'a <= 0', kind: 'fast path', reason: 'same' },
    ];
    expect(classify([BOUND], () => SOURCE, list).unexplained).toHaveLength(1);
  });
});
