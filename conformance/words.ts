/**
 * Words the reports and messages share: a count with its noun, and a value
 * cut to one line. One place, so every stage says them the same way.
 */

/** `1 request`, `3 requests`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** At most `max` characters of `text` on one line, control characters escaped. */
export function excerpt(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} characters)` : flat;
}
