/**
 * Selection, the one place `only` and `skip` are read: which fixed cases and
 * which generated checks they keep, the same way for `--list` and for a run.
 * A pattern names ids (`getPet.unknown`, `auth.*`), a level (`required`,
 * `advice`), an operation (`getPet`: its cases, auth and generated ones
 * included) or a tag of the spec's operations (`pets`). A pattern that matches
 * nothing is refused, naming the closest name that would, and so is a
 * selection that keeps nothing.
 */
import { closestName } from '../../guard/closest.ts';
import { listOperations } from '../../spec/index.ts';
import { allCases } from '../cases/index.ts';
import { ConformanceError } from '../errors.ts';
import { type GeneratedProperty, generatedProperties } from '../generate/catalog.ts';
import type { Case, Level } from '../types.ts';

/** The levels a pattern may name. */
const LEVELS: readonly Level[] = ['required', 'advice'];

/** What a pattern can match besides an id: the case's level and operation. */
interface Selectee {
  id: string;
  level: Level;
  operationId: string;
}

/** The spec's tags of each operation, read once. */
let tagsByOperation: Map<string, readonly string[]> | undefined;
function tagsOf(operationId: string): readonly string[] {
  tagsByOperation ??= new Map(listOperations().map((op) => [op.operationId, op.tags]));
  return tagsByOperation.get(operationId) ?? [];
}

/** Whether `pattern` selects `item`: by id ({@link matchesPattern}), level, operation id, or a tag of its operation. */
function selects(pattern: string, item: Selectee): boolean {
  return (
    matchesPattern(pattern, item.id) ||
    pattern === item.level ||
    pattern === item.operationId ||
    tagsOf(item.operationId).includes(pattern)
  );
}

/** Every name a pattern could be meant as: ids and their dotted prefixes, levels, operations, tags. */
function selectorNames(items: readonly Selectee[]): Set<string> {
  const names = new Set<string>(LEVELS);
  for (const item of items) {
    const parts = item.id.split('.');
    for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join('.'));
    names.add(item.operationId);
    for (const tag of tagsOf(item.operationId)) names.add(tag);
  }
  return names;
}

/**
 * Whether `id` matches `pattern`: `*` matches any run of characters, and a
 * pattern without `*` matches that id and every id below it (`listPets` matches `listPets.ok`).
 */
export function matchesPattern(pattern: string, id: string): boolean {
  if (!pattern.includes('*')) return id === pattern || id.startsWith(`${pattern}.`);
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(id);
}

/** What `only` and `skip` ask for; absent or empty `only` keeps everything. */
interface SelectOptions {
  only?: readonly string[];
  skip?: readonly string[];
}

/** What a selection picks from: the fixed cases and the generated checks. */
interface Selectable {
  cases: readonly Case[];
  generated: readonly GeneratedProperty[];
}

/** What `only` and `skip` kept, and how many they left out. */
export interface Selection {
  only: readonly string[];
  skip: readonly string[];
  cases: Case[];
  /** Generated checks kept; they run only with `generate` above 0. */
  generated: GeneratedProperty[];
  /** Fixed cases left out. */
  casesLeftOut: number;
  /** Generated checks left out. */
  generatedLeftOut: number;
}

/** The items `only` keeps (all when it is empty) and `skip` does not name. */
function selectIds<T extends Selectee>(items: readonly T[], options: SelectOptions): T[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  return items.filter(
    (c) => (only.length === 0 || only.some((p) => selects(p, c))) && !skip.some((p) => selects(p, c)),
  );
}

/**
 * Selects from `from` (every case and generated check by default); throws a ConformanceError
 * when a pattern matches no id at all, or when nothing is left.
 */
export function select(
  options: SelectOptions,
  from: Selectable = { cases: allCases(), generated: generatedProperties() },
): Selection {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  const items: Selectee[] = [...from.cases, ...from.generated];
  const unmatched = [
    ...only.filter((p) => !items.some((c) => selects(p, c))).map((p) => ({ flag: 'only', pattern: p })),
    ...skip.filter((p) => !items.some((c) => selects(p, c))).map((p) => ({ flag: 'skip', pattern: p })),
  ];
  if (unmatched.length > 0) {
    const names = selectorNames(items);
    const near = unmatched.flatMap((u) => {
      const name = closestName(u.pattern, names);
      return name === undefined ? [] : [{ ...u, near: name }];
    });
    const hint =
      near.length === 0
        ? ''
        : unmatched.length === 1
          ? `; did you mean ${near[0]!.near}?`
          : `; did you mean ${near.map((u) => `${u.near} (for ${u.pattern})`).join(', ')}?`;
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
      `${unmatched.map((u) => `--${u.flag} ${u.pattern}`).join(', ')} match${unmatched.length === 1 ? 'es' : ''} no case${hint} (see --list for the case ids)`,
      { option: unmatched[0]!.flag },
    );
  }
  const cases = selectIds(from.cases, { only, skip });
  const generated = selectIds(from.generated, { only, skip });
  if (cases.length === 0 && generated.length === 0)
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
      `no case selected: --skip ${skip.join(',')} leaves out every case --only ${only.join(',')} selects`,
    );
  return {
    only,
    skip,
    cases,
    generated,
    casesLeftOut: from.cases.length - cases.length,
    generatedLeftOut: from.generated.length - generated.length,
  };
}
