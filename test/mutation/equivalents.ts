/**
 * The mutants of the mock that no server could get wrong in a way the contract forbids, each with its reason: what
 * `npm run mutation` counts as equivalent. Keyed by the file, the mutator and the code it changed (not Stryker's
 * ids or line numbers, which move with every edit): an entry that stops matching is reported, to be removed.
 */

/** Why a surviving mutant is no bug a server could have. */
export type EquivalentKind =
  /** It changes the text of a message, which the contract leaves free. */
  | 'message'
  /** It turns off a fast path whose slow path gives the same answer. */
  | 'fast path'
  /** It makes the other choice where the interface leaves it open (docs/ARCHITECTURE's table). */
  | 'open choice'
  /** It changes what no request over HTTP can reach (ids exhausted, a full store, the store's own API). */
  | 'unreachable';

/** One equivalent mutant (or several alike): where, what it changed, and why that is no bug. */
export interface Equivalent {
  /** The mutated file, from the repository's root. */
  file: string;
  /** Stryker's mutator (StringLiteral, ConditionalExpression, ...); any when absent. */
  mutator?: string;
  /** Text found in the mutated code (whitespace folded). */
  code: string;
  /** The replacement, when only one of the mutants of that code is equivalent. */
  replacement?: string;
  kind: EquivalentKind;
  reason: string;
}

/** The list. */
export const EQUIVALENTS: readonly Equivalent[] = [];
