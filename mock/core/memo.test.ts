import fc from 'fast-check';
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

describe('TextMemo, texts asked in turn', () => {
  it('answers as a bounded map would, whatever order texts are kept, asked again and cleared in', () => {
    // More texts than the memo keeps found at hand (four), one too long to keep.
    const texts = ['a', 'bb', 'cc', 'ddd', 'e', 'ffffff'];
    const op = fc.oneof(
      {
        arbitrary: fc.record({ kind: fc.constant('keep' as const), text: fc.constantFrom(...texts), value: fc.nat(3) }),
        weight: 3,
      },
      { arbitrary: fc.record({ kind: fc.constant('get' as const), text: fc.constantFrom(...texts) }), weight: 6 },
      { arbitrary: fc.record({ kind: fc.constant('clear' as const) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 80 }), (ops) => {
        // A memo of five entries, none longer than five: the model is a Map emptied when full.
        const memo = new TextMemo<number>(5, 5);
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'clear') {
            memo.clear();
            model.clear();
          } else if (o.kind === 'keep') {
            expect(memo.keep(o.text, o.value)).toBe(o.value);
            if (o.text.length <= 5) {
              if (model.size >= 5) model.clear();
              model.set(o.text, o.value);
            }
          } else expect(memo.get(o.text), `get ${o.text}`).toBe(model.get(o.text));
          expect(memo.size).toBe(model.size);
        }
      }),
    );
  });
});
