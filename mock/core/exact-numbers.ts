/**
 * Integers exactly as sent: JSON.parse rounds a number before any schema sees
 * it (`1e-400` becomes 0, `1.0000000000000001` becomes 1,
 * `4503599627370496.5` becomes 4503599627370496), so the mock reads the
 * number's JSON text itself and refuses one that is not exactly an integer in
 * the safe range, rather than store a value the client never sent.
 */

/** Where a number sits in a JSON document: keys and array indexes from the root. */
type JsonPath = readonly (string | number)[];

/** A number whose text is not exactly a safe integer, where it is, and its text (cut to 40 characters). */
interface InexactNumber {
  path: JsonPath;
  text: string;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a JSON number's text denotes exactly an integer from -(2^53 - 1) to 2^53 - 1 (`1e2` and `1.0` do). */
export function isExactSafeInteger(text: string): boolean {
  const match = /^-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return false;
  const fraction = match[2] ?? '';
  let digits = (match[1]! + fraction).replace(/^0+/, '');
  if (digits === '') return true;
  // The exponent's own digits may be many (1e0000000000000000002): a number, not a string, is enough to compare.
  let exponent = Number(match[3] ?? '0') - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  if (exponent < 0 || digits.length + exponent > 16) return false;
  return BigInt(digits + '0'.repeat(exponent)) <= MAX_SAFE;
}

/**
 * The first number in `text` (valid JSON), `depth` containers deep at a path `wanted` accepts, whose text is
 * not exactly a safe integer (of a key given twice, the last, as JSON.parse keeps it), or undefined. It walks the text once, keeping only a stack of where it is: no recursion.
 */
export function findInexactInteger(
  text: string,
  depth: number,
  wanted: (path: JsonPath) => boolean,
): InexactNumber | undefined {
  // Most bodies hold no fraction, exponent or long number anywhere: nothing to walk.
  if (!/[0-9][.eE]|[0-9]{16}/.test(text)) return undefined;
  // Each open object or array, with where in it the walk is: its current key, or its current index.
  const frames: { array: boolean; index: number; key: string }[] = [];
  // By path: a key given twice counts as JSON.parse counts it, the last time.
  const found = new Map<string, InexactNumber>();
  const here = () => frames.map((f) => (f.array ? f.index : f.key));
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      let next = end + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (text[next] === ':') {
        frames.at(-1)!.key = JSON.parse(text.slice(i, end + 1)) as string;
        if (found.size > 0 && frames.length === depth) found.delete(JSON.stringify(here()));
      }
      i = end;
    } else if (ch === '{' || ch === '[') frames.push({ array: ch === '[', index: 0, key: '' });
    else if (ch === '}' || ch === ']') frames.pop();
    else if (ch === ',') {
      const top = frames.at(-1)!;
      if (top.array) top.index++;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      let end = i + 1;
      while (end < text.length && /[0-9.eE+-]/.test(text[end]!)) end++;
      const number = text.slice(i, end);
      // Only numbers at the wanted depth are looked at: a path is built for them alone, so a deeply nested
      // body full of fractions costs one pass, not one pass per number.
      if (frames.length === depth && !isExactSafeInteger(number)) {
        const path = here();
        if (wanted(path)) found.set(JSON.stringify(path), { path, text: number.slice(0, 40) });
      }
      i = end - 1;
    }
  }
  return found.values().next().value;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** `pets[3].categoryId` for `['pets', 3, 'categoryId']`-like paths, given the root's name. */
export function describePath(root: string, path: JsonPath): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : `${out}.${part}`), root);
}
