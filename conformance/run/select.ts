/** Case selection: which cases `only` and `skip` keep. */
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

/** Options of {@link selectCases}. */
export interface SelectOptions {
  only?: readonly string[];
  skip?: readonly string[];
}

/** The cases `only` keeps (all when empty) minus those `skip` names. */
export function selectCases(cases: readonly Case[], options: SelectOptions): Case[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  return cases.filter(
    (c) =>
      (only.length === 0 || only.some((p) => matchesPattern(p, c.id))) && !skip.some((p) => matchesPattern(p, c.id)),
  );
}
