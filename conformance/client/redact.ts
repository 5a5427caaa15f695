/**
 * Redaction of the API key at the output edge: every form in which a server
 * might echo it (raw, JSON-escaped, URL-encoded in either hex case, base64,
 * inside Basic credentials) is replaced where text is written, never in the
 * data the checks read. Two redactors: one for what the server sent (every
 * occurrence goes), one for text that mixes the suite's own words with
 * server values (a short key goes only where it stands alone, so that a key
 * `t` does not turn `content-type` into `con[REDACTED]en...`).
 */

import { createKeyRedactor, keySpellings, REDACTED, type Redactor } from '../../guard/redact.ts';

/** The user-id prefix the suite puts before the key when it tries Basic credentials. */
export const BASIC_USER = 'conformance';

/** The key's spellings (guard/redact.ts lists them), and the base64 of the suite's Basic credentials with it. */
function variants(secret: string): string[] {
  const forms = new Set([...keySpellings(secret), Buffer.from(`${BASIC_USER}:${secret}`).toString('base64')]);
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** A pattern for `form` in which every percent-escape matches in either case (`%2F` and `%2f`). */
function formPattern(form: string): RegExp {
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    escaped.replace(
      /%([0-9A-F])([0-9A-F])/g,
      (_m, a: string, b: string) => `%[${a}${a.toLowerCase()}][${b}${b.toLowerCase()}]`,
    ),
    'g',
  );
}

/**
 * A form this long cannot pass for a word of the suite's own text, so mixed text loses it wherever it occurs;
 * a shorter one only where it stands alone (no letter, digit or `_` on either side).
 */
const FREE_FORM_LENGTH = 8;

function boundedPattern(form: string): RegExp {
  const inner = formPattern(form).source;
  return new RegExp(`(?<![A-Za-z0-9_])${inner}(?![A-Za-z0-9_])`, 'g');
}

/**
 * The secrets as guard/redact.ts's key redaction takes them: each secret, and the base64 of the Basic credentials
 * the suite sends with it (`conformance:KEY`), which that redaction then also finds raw. Empty secrets are dropped.
 */
function keyRedactor(secrets: readonly string[]): Redactor {
  const live = secrets.filter((s) => s !== '');
  return createKeyRedactor([...live, ...live.map((s) => Buffer.from(`${BASIC_USER}:${s}`).toString('base64'))]);
}

/**
 * Builds a redactor for `secrets` that replaces every occurrence, for text a server sent; empty secrets are ignored.
 * It is the mock's key redaction (guard/redact.ts, one rule written once): a secret raw, JSON-escaped,
 * percent-encoded whole or in part in either case, in base64 (standard, URL-safe, unpadded), and inside the
 * suite's Basic credentials.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  return keyRedactor(secrets);
}

/**
 * Builds a redactor for text that mixes the suite's own words with server values (check messages, reasons,
 * transport errors, a base URL): a secret of {@link FREE_FORM_LENGTH} characters or more goes wherever it occurs,
 * in every spelling; a shorter one (and each of its spellings) only where it stands alone.
 */
export function createTextRedactor(secrets: readonly string[]): Redactor {
  const short = secrets.filter((s) => s !== '' && s.length < FREE_FORM_LENGTH);
  const bounded = replacer(
    short.flatMap(variants).map((form) => (form.length >= FREE_FORM_LENGTH ? formPattern(form) : boundedPattern(form))),
  );
  const long = keyRedactor(secrets.filter((s) => s.length >= FREE_FORM_LENGTH));
  return (text) => long(bounded(text));
}

function replacer(patterns: RegExp[]): Redactor {
  if (patterns.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const pattern of patterns) out = out.replace(pattern, REDACTED);
    return out;
  };
}
