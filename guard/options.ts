/**
 * The option checks both packages make the same way: how a wrong value is named in an error, and the one line that
 * names every unknown option with the closest known one (a typo is never ignored in silence).
 */
import { didYouMean } from './closest.ts';

/** How a value's kind reads in an error: `null`, `an array`, else its `typeof`. */
export function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** The options of an object that are not known: the first's name and problem, and one line naming them all. */
interface UnknownOptions {
  /** The first unknown name. */
  option: string;
  /** What the error says after it: `: not an option; did you mean apiKeys?`. */
  problem: string;
  /** `a: not an option; did you mean b? (also c: not an option, ...)`. */
  message: string;
}

/**
 * The keys of `options` that are not in `known`, each with the closest name of `known` and `alsoKnown` (names taken
 * out before, such as an adapter's own); undefined when every key is known.
 */
export function unknownOptions(
  options: object,
  known: Iterable<string>,
  alsoKnown: Iterable<string> = [],
): UnknownOptions | undefined {
  const names = new Set(known);
  const unknown = Object.keys(options).filter((name) => !names.has(name));
  if (unknown.length === 0) return undefined;
  const all = [...names, ...alsoKnown];
  const [first, ...rest] = unknown.map((name) => ({ name, problem: `: not an option${didYouMean(name, all)}` }));
  const line = `${first!.name}${first!.problem}`;
  const message = rest.length === 0 ? line : `${line} (also ${rest.map((u) => `${u.name}${u.problem}`).join(', ')})`;
  return { option: first!.name, problem: first!.problem, message };
}
