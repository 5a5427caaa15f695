/**
 * `--shard i/n`: the run split into n parts for n CI jobs, each selected case in exactly one. The split is a pure
 * function of the seed and the selected ids (a SHA-256 of each, sorted, dealt round-robin), so every machine computes
 * the same shards, and they are balanced to within one unit. The generated checks are one unit: they are judged on
 * shared model-based sequences across operations, so splitting them would change the requests sent.
 */
import { createHash } from 'node:crypto';
import { badOptions } from '../errors.ts';
import type { Shard, ShardInfo } from '../types.ts';
import type { Selection } from './select.ts';

/** At most this many shards: more would leave most jobs with nothing to run. */
const MAX_SHARDS = 1000;

/** Reads `i/n` (`2/4`), as `--shard` takes it. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  if (!match) throw badOptions('shard', `must be i/n, such as 1/4, got ${JSON.stringify(text)}`);
  return checkShard({ current: Number(match[1]), total: Number(match[2]) });
}

/** Checks a shard given to runConformance: whole numbers, 1 <= current <= total <= {@link MAX_SHARDS}. */
export function checkShard(shard: unknown): Shard {
  const s = shard as Partial<Shard> | null;
  if (s === null || typeof s !== 'object' || !Number.isInteger(s.current) || !Number.isInteger(s.total))
    throw badOptions('shard', 'must be { current, total } of whole numbers (--shard i/n)');
  const { current, total } = s as Shard;
  if (total < 1 || total > MAX_SHARDS) throw badOptions('shard', `total must be from 1 to ${MAX_SHARDS}, got ${total}`);
  if (current < 1 || current > total)
    throw badOptions('shard', `must be from 1/${total} to ${total}/${total}, got ${current}/${total}`);
  return { current, total };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The id the generated checks share as one unit of the split. */
const GENERATED_UNIT = 'generated';

/**
 * The part of `selection` that shard `shard.current` runs, with what its report states. `generate` is the generated
 * requests per operation: with 0 the generated checks do not run, and are no unit. Throws a ConformanceError when
 * this shard would run nothing (more shards than units): nothing tested is never green.
 */
export function shardSelection(
  selection: Selection,
  shard: Shard,
  seed: number,
  generate: number,
): { selection: Selection; info: ShardInfo } {
  const units = [
    ...selection.cases.map((c) => c.id),
    ...(generate > 0 && selection.generated.length > 0 ? [GENERATED_UNIT] : []),
  ];
  const order = units
    .map((id) => ({ id, key: digest(`${seed}\n${id}`) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const mine = new Set(order.filter((_, i) => (i % shard.total) + 1 === shard.current).map((u) => u.id));
  const all = [...selection.cases.map((c) => c.id), ...selection.generated.map((g) => g.id)].sort();
  const info: ShardInfo = {
    ...shard,
    selection: digest(JSON.stringify([seed, generate, all])).slice(0, 16),
    units: units.length,
  };
  if (mine.size === 0)
    throw badOptions(
      'shard',
      '',
      `--shard ${shard.current}/${shard.total} holds no case: the selection has ${units.length} unit${units.length === 1 ? '' : 's'} to split (fixed cases, and the generated checks as one); use at most ${units.length} shards`,
    );
  return {
    selection: {
      ...selection,
      cases: selection.cases.filter((c) => mine.has(c.id)),
      generated: mine.has(GENERATED_UNIT) ? selection.generated : [],
    },
    info,
  };
}
