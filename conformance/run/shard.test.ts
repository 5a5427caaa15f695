import { describe, expect, it } from 'vitest';
import { ConformanceError } from '../errors.ts';
import { select } from './select.ts';
import { parseShard, shardSelection } from './shard.ts';

const whole = select({});

/** The ids each of `total` shards runs ('generated' standing for the generated checks, run as one unit). */
function split(total: number, seed: number, generate: number): string[][] {
  return Array.from({ length: total }, (_, i) => {
    const { selection } = shardSelection(whole, { current: i + 1, total }, seed, generate);
    return [...selection.cases.map((c) => c.id), ...(selection.generated.length > 0 ? ['generated'] : [])];
  });
}

describe('--shard i/n', () => {
  it('puts every fixed case, and the generated checks as one unit, in exactly one shard, balanced', () => {
    for (const total of [1, 2, 3, 7]) {
      const shards = split(total, 1, 10);
      const all = shards.flat();
      expect(all.sort()).toEqual([...whole.cases.map((c) => c.id), 'generated'].sort());
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
    // Without --generate the generated checks do not run, so they are in no shard.
    expect(split(2, 1, 0).flat().sort()).toEqual(whole.cases.map((c) => c.id).sort());
  });

  it('is the same for the same seed (a pure function of it and the ids), and another for another seed', () => {
    expect(split(3, 1, 0)).toEqual(split(3, 1, 0));
    expect(split(3, 2, 0)).not.toEqual(split(3, 1, 0));
    // Every shard of one run states the same digest of the selection; another seed, another digest.
    const digest = (current: number, seed: number) =>
      shardSelection(whole, { current, total: 3 }, seed, 0).info.selection;
    expect(new Set([1, 2, 3].map((c) => digest(c, 1))).size).toBe(1);
    expect(digest(1, 2)).not.toBe(digest(1, 1));
  });

  it('refuses a shard that would run nothing, and a malformed i/n, each with a clear line', () => {
    const few = select({ only: ['getPet.unknown'] });
    expect(few.cases).toHaveLength(1);
    expect(() => shardSelection(few, { current: 2, total: 2 }, 1, 0)).toThrow(
      '--shard 2/2 holds no case: the selection has 1 unit to split (fixed cases, and the generated checks as one); use at most 1 shards',
    );
    expect(parseShard('2/4')).toEqual({ current: 2, total: 4 });
    for (const [text, message] of [
      ['0/4', 'shard must be from 1/4 to 4/4, got 0/4'],
      ['5/4', 'shard must be from 1/4 to 4/4, got 5/4'],
      ['1/0', 'shard total must be from 1 to 1000, got 0'],
      ['half', 'shard must be i/n, such as 1/4, got "half"'],
    ] as const) {
      expect(() => parseShard(text)).toThrow(ConformanceError);
      expect(() => parseShard(text)).toThrow(message);
    }
  });
});
