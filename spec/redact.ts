/**
 * The one redaction of API keys, used by the mock's request journal and its
 * node server's log, and by the conformance suite's reports (it lives here, in
 * spec/, because the suite must not import the mock): a key is replaced wherever it appears whole, raw,
 * JSON-escaped, percent-encoded in either hex case (whole or in part:
 * `sk%2flive%2B1`, `%73k/live+1`), or in base64 (standard or URL-safe, with
 * or without padding). Plain JavaScript: no `node:` import.
 */

/** What replaces a key in the journal and the log. */
export const REDACTED = '[REDACTED]';

/** Replaces every form of the keys in a text. */
export type KeyRedactor = (text: string) => string;

const utf8 = new TextEncoder();

/** The UTF-8 bytes of `text`, one latin1 character each. */
function bytesOf(text: string): string {
  let out = '';
  for (const byte of utf8.encode(text)) out += String.fromCharCode(byte);
  return out;
}

/** The spellings a key is matched in directly (the percent-encoded ones are matched by decoding instead). */
function literalForms(key: string): string[] {
  const base64 = btoa(bytesOf(key));
  const unpadded = base64.replace(/=+$/, '');
  const forms = new Set([
    key,
    JSON.stringify(key).slice(1, -1),
    base64,
    unpadded,
    unpadded.replaceAll('+', '-').replaceAll('/', '_'),
  ]);
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

/** Builds the redactor for `keys` (empty keys are ignored). */
export function createKeyRedactor(keys: readonly string[]): KeyRedactor {
  const live = keys.filter((key) => key !== '');
  if (live.length === 0) return (text) => text;
  const forms = [...new Set(live.flatMap(literalForms))].sort((a, b) => b.length - a.length);
  const needles = live.map(bytesOf);
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out.includes('%') ? redactEncoded(out, needles) : out;
  };
}

const cache = new WeakMap<readonly string[], KeyRedactor>();

/** {@link createKeyRedactor}'s redactor for `keys` (made once per array), applied to `text`. */
export function redactKeys(text: string, keys: readonly string[]): string {
  let redactor = cache.get(keys);
  if (redactor === undefined) cache.set(keys, (redactor = createKeyRedactor(keys)));
  return redactor(text);
}

/**
 * Redacts keys however they are percent-encoded: matches on the decoded bytes and replaces the raw spelling,
 * so the text stays encoded (decoding could let line breaks into a log).
 */
function redactEncoded(text: string, needles: readonly string[]): string {
  let decoded = '';
  const rawAt: number[] = [];
  for (let i = 0; i < text.length; ) {
    const escaped = text[i] === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3));
    const code = text.codePointAt(i)!;
    const raw = escaped ? 3 : code > 0xffff ? 2 : 1;
    const bytes = escaped
      ? String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16))
      : bytesOf(text.slice(i, i + raw));
    // Each decoded byte maps back to where its raw spelling starts.
    for (let b = 0; b < bytes.length; b++) rawAt.push(i);
    decoded += bytes;
    i += raw;
  }
  rawAt.push(text.length);
  const spans: [number, number][] = [];
  for (const needle of needles)
    for (let at = decoded.indexOf(needle); at !== -1; at = decoded.indexOf(needle, at + needle.length))
      spans.push([rawAt[at]!, rawAt[at + needle.length]!]);
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (start < from) continue;
    out += `${text.slice(from, start)}${REDACTED}`;
    from = end;
  }
  return out + text.slice(from);
}
