/**
 * The one redaction of secrets, used by the mock's request journal, Pact file and
 * node server's log, and by the conformance suite's reports: a key is replaced wherever it appears whole, raw,
 * JSON-escaped (`\u0073k…` included), percent-encoded in either hex case (whole or in part:
 * `sk%2flive%2B1`, `%73k/live+1`), as HTML character references (`&#115;&#x6B;…`, `&amp;`), or in base64
 * (standard or URL-safe, with or without padding) at any offset, so the base64 of `Bearer KEY` or of
 * `user:KEY` loses it too. Plain JavaScript: no `node:` import.
 */

/** What replaces a secret wherever either package writes text: the journal, the log, a Pact file, every report. */
export const REDACTED = '[REDACTED]';

/** Replaces every form of the secrets in a text. */
export type Redactor = (text: string) => string;

const utf8 = new TextEncoder();

/** The UTF-8 bytes of `text`, one latin1 character each. */
function bytesOf(text: string): string {
  let out = '';
  for (const byte of utf8.encode(text)) out += String.fromCharCode(byte);
  return out;
}

const urlSafe = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

/**
 * The base64 characters that encode only the key's own bytes when it starts `offset` bytes (0, 1 or 2) into
 * the encoded text: whatever precedes or follows it, these characters are the same, so the key is found
 * inside the base64 of `Bearer KEY`, `user:KEY` or any longer text.
 */
function base64Core(bytes: string, offset: number): string {
  const encoded = btoa('\0'.repeat(offset) + bytes);
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/**
 * The spellings of a key, the one list of them: raw, JSON-escaped, percent-encoded (upper-case hex), base64 (standard,
 * unpadded, URL-safe) and the base64 characters that stand for the key inside a longer encoded text. The redactor
 * matches these directly (and finds the other percent-, \u- and entity-encodings by decoding); the suite's redactor
 * for mixed text matches them where they stand alone. Longest first, so a form that contains another goes whole.
 */
export function keySpellings(key: string): string[] {
  const bytes = bytesOf(key);
  const base64 = btoa(bytes);
  const unpadded = base64.replace(/=+$/, '');
  const forms = new Set([
    key,
    JSON.stringify(key).slice(1, -1),
    encodeURIComponent(key),
    base64,
    unpadded,
    urlSafe(unpadded),
  ]);
  // A core shorter than 4 characters could stand for anything; such a key is only found whole.
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    if (core.length >= 4) forms.add(core).add(urlSafe(core));
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

/** Builds the redactor for `keys` (empty keys are ignored). */
export function createKeyRedactor(keys: readonly string[]): Redactor {
  const live = keys.filter((key) => key !== '');
  if (live.length === 0) return (text) => text;
  const forms = [...new Set(live.flatMap(keySpellings))].sort((a, b) => b.length - a.length);
  const needles = live.map(bytesOf);
  // A text shorter than every form holds none; decoded, each of its characters is at most 3 bytes (UTF-8).
  const shortestForm = forms[forms.length - 1]!.length;
  const shortestNeedle = Math.min(...needles.map((n) => n.length));
  return (text) => {
    let out = text;
    if (out.length >= shortestForm)
      for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (out.length * 3 >= shortestNeedle)
      for (const family of FAMILIES) if (family.marker.test(out)) out = redactEncoded(out, needles, family.escape);
    return out;
  };
}

const cache = new WeakMap<readonly string[], Redactor>();

/** {@link createKeyRedactor}'s redactor for `keys` (made once per array), applied to `text`. */
export function redactKeys(text: string, keys: readonly string[]): string {
  let redactor = cache.get(keys);
  if (redactor === undefined) cache.set(keys, (redactor = createKeyRedactor(keys)));
  return redactor(text);
}

/** The named character references a key's characters are likely written as (HTML's full list is 2,000 names). */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  plus: '+',
  equals: '=',
  percnt: '%',
  num: '#',
  colon: ':',
  lowbar: '_',
  hyphen: '-',
  period: '.',
  tilde: '~',
};

/** The JSON escapes besides `\u`: what each stands for. */
const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** An escape that starts at `text[i]`: how many characters it spans and the bytes it stands for; none → undefined. */
type EscapeAt = (text: string, i: number) => [number, string] | undefined;

const percentAt: EscapeAt = (text, i) => {
  const hex = text.slice(i + 1, i + 3);
  return text[i] === '%' && /^[0-9a-f]{2}$/i.test(hex) ? [3, String.fromCharCode(parseInt(hex, 16))] : undefined;
};

const backslashAt: EscapeAt = (text, i) => {
  if (text[i] === '\\') {
    const next = text[i + 1] ?? '';
    if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      return /^[0-9a-f]{4}$/i.test(hex) ? [6, bytesOf(String.fromCharCode(parseInt(hex, 16)))] : undefined;
    }
    const plain = JSON_ESCAPES[next];
    return plain === undefined ? undefined : [2, plain];
  }
  return undefined;
};

const referenceAt: EscapeAt = (text, i) => {
  if (text[i] === '&') {
    const ref = /^&(?:#x([0-9a-f]{1,6})|#([0-9]{1,7})|([a-z]{2,8}));?/i.exec(text.slice(i, i + 12));
    if (ref === null) return undefined;
    if (ref[3] !== undefined) {
      const named = ENTITIES[ref[3].toLowerCase()];
      return named === undefined || !ref[0].endsWith(';') ? undefined : [ref[0].length, named];
    }
    const code = ref[1] !== undefined ? parseInt(ref[1], 16) : Number(ref[2]);
    return code > 0x10ffff ? undefined : [ref[0].length, bytesOf(String.fromCodePoint(code))];
  }
  return undefined;
};

/**
 * The escaping families, each decoded on its own (a key with a backslash, HTML-escaped, must not have its `\b`
 * read as a JSON escape), each with the mark that tells a text may hold one.
 */
const FAMILIES: { marker: RegExp; escape: EscapeAt }[] = [
  { marker: /%[0-9a-f]{2}/i, escape: percentAt },
  { marker: /\\/, escape: backslashAt },
  { marker: /&(#|[a-z]+;)/i, escape: referenceAt },
];

/**
 * Redacts keys however they are escaped in one family (percent-encoding, JSON's backslash escapes or HTML
 * character references), whole or mixed with plain characters: matches on the decoded bytes and replaces the raw spelling, so the text stays
 * encoded (decoding could let line breaks into a log).
 */
function redactEncoded(text: string, needles: readonly string[], escapeAt: EscapeAt): string {
  let decoded = '';
  const rawAt: number[] = [];
  for (let i = 0; i < text.length; ) {
    const escaped = escapeAt(text, i);
    const code = text.codePointAt(i)!;
    const raw = escaped ? escaped[0] : code > 0xffff ? 2 : 1;
    // An ASCII character is its own one byte: only the rest go through the encoder.
    const bytes = escaped ? escaped[1] : code < 0x80 ? text[i]! : bytesOf(text.slice(i, i + raw));
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

/**
 * The credentials written in a URL's authority (`user:pass@`), as written and percent-decoded, for redaction; none
 * when it has none. Read off the text, so a URL that does not parse gives them up too.
 */
export function urlUserInfo(url: unknown): string[] {
  const userinfo = typeof url === 'string' ? /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url)?.[1] : undefined;
  if (userinfo === undefined || userinfo === '') return [];
  const colon = userinfo.indexOf(':');
  const parts = colon === -1 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)];
  const decoded = parts.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  return [userinfo, ...parts, ...decoded].filter((s) => s !== '');
}

/** Options of {@link redactDeep}. */
interface RedactDeepOptions {
  /** Also redact object keys (for data a server or client sent); off for the suite's own structures, whose keys are fixed names. */
  keys?: boolean;
  /** A copy even when nothing changes (for a value handed out whose parts must not be shared). */
  copy?: boolean;
}

/**
 * Adds an own, enumerable data property, as JSON.parse does. Plain assignment would turn a `"__proto__"` key from
 * outside into the copy's prototype, and ajv's `required` would then accept inherited fields.
 */
function ownField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** How deep {@link redactDeep} copies; deeper structure is replaced by {@link CUT_DEEPER}. */
export const MAX_REDACT_DEPTH = 64;

/** What stands in a copy for JSON nested deeper than {@link MAX_REDACT_DEPTH} levels. */
export const CUT_DEEPER = `[nested deeper than ${MAX_REDACT_DEPTH} levels: cut in the report]`;

/** Whether `value` is an array or an object JSON.parse could have made (its prototype Object's or none). */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether {@link redactDeep} would make anything different from `value`: a string or key the redactor changes,
 * structure past the depth cut, or an object that is not plain (the copy is a plain one). One walk, no allocation.
 */
function changedBy(value: unknown, redact: Redactor, keys: boolean, depth: number): boolean {
  if (typeof value === 'string') return redact(value) !== value;
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_REDACT_DEPTH || !isPlain(value)) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (!(i in value) || changedBy(value[i], redact, keys, depth + 1)) return true;
    return false;
  }
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if ((keys && redact(k) !== k) || changedBy((value as Record<string, unknown>)[k], redact, keys, depth + 1))
      return true;
  }
  return false;
}

/**
 * Returns `value` with every string (and, unless `keys` is false, every object key) passed through `redact`: the
 * value itself when that changes nothing (the usual case: no secret in it) unless `copy` asks for one, else a deep
 * copy. Whoever sent the value controls its depth: past {@link MAX_REDACT_DEPTH} levels the copy holds
 * {@link CUT_DEEPER} instead, so neither this walk nor what is written grows with it.
 */
export function redactDeep<T>(value: T, redact: Redactor, options: RedactDeepOptions = {}): T {
  const keys = options.keys !== false;
  return options.copy || changedBy(value, redact, keys, 0) ? copyRedacted(value, redact, keys, 0) : value;
}

function copyRedacted<T>(value: T, redact: Redactor, keys: boolean, depth: number): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value !== null && typeof value === 'object' && depth >= MAX_REDACT_DEPTH) return CUT_DEEPER as T;
  if (Array.isArray(value)) return value.map((v) => copyRedacted(v, redact, keys, depth + 1)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      ownField(out, keys ? redact(k) : k, copyRedacted(v, redact, keys, depth + 1));
    return out as T;
  }
  return value;
}
