import { describe, expect, it } from 'vitest';
import { TextMemo } from './memo.ts';

describe('TextMemo', () => {
  it('holds at most its entries, none with a text longer than its key length, and answers what it kept', () => {
    const memo = new TextMemo<number>(3, 4);
    for (let i = 0; i < 10; i++) {
      expect(memo.keep(`q${i}`, i)).toBe(i);
      expect(memo.size).toBeLessThanOrEqual(3);
      expect(memo.get(`q${i}`)).toBe(i);
    }
    expect(memo.keep('q12345', 7)).toBe(7);
    expect(memo.get('q12345')).toBeUndefined();
    memo.clear();
    expect([memo.size, memo.get('q9')]).toEqual([0, undefined]);
  });

  it('answers what was kept last for a text, and nothing once it emptied, even for the text it found last', () => {
    const memo = new TextMemo<string>(2, 10);
    memo.keep('a', 'first');
    expect(memo.get('a')).toBe('first');
    memo.keep('a', 'second');
    expect(memo.get('a')).toBe('second');
    memo.keep('b', 'b');
    memo.keep('c', 'c');
    expect([memo.get('a'), memo.get('c')]).toEqual([undefined, 'c']);
  });
});
