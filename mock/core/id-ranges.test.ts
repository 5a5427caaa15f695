import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdRanges } from './id-ranges.ts';

describe('IdRanges', () => {
  it('holds exactly the ids added, whatever their order, as the fewest ranges they make (a Set as the model)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 120 }), (ids) => {
        const ranges = new IdRanges(1_000);
        const model = new Set<number>();
        for (const id of ids) {
          expect(ranges.add(id)).toBe(true);
          model.add(id);
        }
        for (let id = 0; id <= 61; id++) expect(ranges.has(id)).toBe(model.has(id));
        // One range per run of consecutive ids: every id held whose predecessor is not starts one.
        expect(ranges.size).toBe([...model].filter((id) => !model.has(id - 1)).length);
      }),
    );
  });

  it('refuses just the ids that would need a range beyond its limit (a model that refuses them too)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        (ids, limit) => {
          const ranges = new IdRanges(limit);
          const model = new Set<number>();
          const runs = (held: Set<number>) => [...held].filter((id) => !held.has(id - 1)).length;
          for (const id of ids) {
            // Taken when held, or when the runs with it still fit: one that joins or extends a run adds none.
            const expected = model.has(id) || runs(new Set(model).add(id)) <= limit;
            expect(ranges.add(id)).toBe(expected);
            if (expected) model.add(id);
          }
          for (let id = 0; id <= 41; id++) expect(ranges.has(id)).toBe(model.has(id));
        },
      ),
    );
  });

  it('keeps a run of creates, and the same run again after a reset, as one range', () => {
    const ranges = new IdRanges(10);
    for (let round = 0; round < 3; round++) for (let id = 51; id <= 10_050; id++) ranges.add(id);
    expect(ranges.size).toBe(1);
    expect([ranges.has(50), ranges.has(51), ranges.has(10_050), ranges.has(10_051)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('joins two ranges when the id between them comes', () => {
    const ranges = new IdRanges(10);
    for (const id of [1, 2, 4, 5, 3]) ranges.add(id);
    expect(ranges.size).toBe(1);
    expect(ranges.has(3)).toBe(true);
  });

  it('refuses an id that needs a range beyond its limit, and keeps growing the ranges it has', () => {
    const ranges = new IdRanges(2);
    expect([ranges.add(10), ranges.add(20), ranges.add(30)]).toEqual([true, true, false]);
    expect(ranges.has(30)).toBe(false);
    expect([ranges.add(11), ranges.add(19), ranges.add(21)]).toEqual([true, true, true]);
    expect([ranges.has(11), ranges.has(19), ranges.has(21), ranges.size]).toEqual([true, true, true, 2]);
  });
});
