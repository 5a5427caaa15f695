/**
 * Selection, the one place `only` and `skip` are read: which fixed cases and
 * which generated checks they keep, the same way for `--list` and for a run.
 * A pattern that matches no id of either is refused, and so is a selection
 * that keeps nothing.
 */
import { allCases } from '../cases/index.ts';
import { ConformanceError } from '../errors.ts';
import { type GeneratedCheck, generatedChecks } from '../generate/catalog.ts';
import type { Case } from '../types.ts';

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
export interface SelectOptions {
  only?: readonly string[];
  skip?: readonly string[];
}

/** What a selection picks from: the fixed cases and the generated checks. */
export interface Selectable {
  cases: readonly Case[];
  generated: readonly GeneratedCheck[];
}

/** What `only` and `skip` kept, and how many they left out. */
export interface Selection {
  only: readonly string[];
  skip: readonly string[];
  cases: Case[];
  /** Generated checks kept; they run only with `generate` above 0. */
  generated: GeneratedCheck[];
  /** Fixed cases left out. */
  casesLeftOut: number;
  /** Generated checks left out. */
  generatedLeftOut: number;
}

/** The items whose id `only` keeps (all when it is empty) and `skip` does not name. */
export function selectIds<T extends { id: string }>(items: readonly T[], options: SelectOptions): T[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  return items.filter(
    (c) =>
      (only.length === 0 || only.some((p) => matchesPattern(p, c.id))) && !skip.some((p) => matchesPattern(p, c.id)),
  );
}

/**
 * Selects from `from` (every case and generated check by default); throws a ConformanceError
 * when a pattern matches no id at all, or when nothing is left.
 */
export function select(
  options: SelectOptions,
  from: Selectable = { cases: allCases(), generated: generatedChecks() },
): Selection {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  const ids = [...from.cases, ...from.generated].map((c) => c.id);
  const unmatched = [
    ...only.filter((p) => !ids.some((id) => matchesPattern(p, id))).map((p) => `--only ${p}`),
    ...skip.filter((p) => !ids.some((id) => matchesPattern(p, id))).map((p) => `--skip ${p}`),
  ];
  if (unmatched.length > 0)
    throw new ConformanceError(
      'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
      `${unmatched.join(', ')} match${unmatched.length === 1 ? 'es' : ''} no case (see --list for the case ids)`,
    );
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
