/**
 * Bearer API key checks (RFC 6750): the scheme name is matched without regard
 * to case (RFC 9110 §11.1), and keys are compared in constant time, in plain
 * JavaScript (no `node:crypto`, so the check runs in a browser too).
 */
import { badOption } from './errors.ts';

/** Why a request was not authenticated, or `null` when it was. */
export type AuthFailure = 'missing' | 'scheme' | 'invalid' | null;

/** Checks an `Authorization` header against the configured keys. */
export type Authenticator = (authorization: string | undefined) => AuthFailure;

const BEARER = /^bearer +(\S.*)$/i;

/**
 * A key as the compare reads it: its UTF-16 code units in an Int32Array padded with zeros to a power of two (one
 * zero at least past the key), so that the candidate's `i`-th code unit meets `codes[i & mask]` (an array read, no
 * string access or division per code unit), and its length.
 */
interface KeyCodes {
  readonly codes: ArrayLike<number>;
  readonly mask: number;
  readonly length: number;
}

/** {@link KeyCodes} of `key`, made once per key when the checker is built. */
export function keyCodes(key: string): KeyCodes {
  let size = 1;
  while (size <= key.length) size *= 2;
  const codes = new Int32Array(size);
  for (let i = 0; i < key.length; i++) codes[i] = key.charCodeAt(i);
  return { codes, mask: size - 1, length: key.length };
}

/**
 * Whether `candidate` equals `key`, reading every code unit of the candidate and folding it into one difference,
 * with no early exit: how much of a wrong key was right does not show in the time taken, and the key's codes are
 * read as many times as the candidate is long, whatever the key's own length (past the padded end, from its start
 * again: a mask, as the counter before it was a branch and the remainder before that a division, none depending
 * on what the key holds).
 */
export function constantTimeEqual(candidate: string, key: string | KeyCodes): boolean {
  return difference(candidate, typeof key === 'string' ? keyCodes(key) : key) === 0;
}

/** How `text` differs from the key: 0 when it is the key. Code units before `from` are known equal and not read. */
function difference(text: string, { codes, mask, length }: KeyCodes, from = 0): number {
  let found = text.length ^ length;
  for (let i = from; i < text.length; i++) found |= text.charCodeAt(i) ^ codes[i & mask]!;
  return found;
}

/** Whether `text` is one of `keys`: every key is compared, so the time taken does not tell which one matched. */
function matchesAny(text: string, keys: readonly KeyCodes[], from = 0): boolean {
  let ok = false;
  for (let k = 0; k < keys.length; k++) ok = difference(text, keys[k]!, from) === 0 || ok;
  return ok;
}

const BEARER_PREFIX = 'Bearer ';

/** Builds an authenticator for `apiKeys`; each check compares the token with every key in constant time. */
export function createAuthenticator(apiKeys: readonly string[]): Authenticator {
  if (apiKeys.length === 0) throw badOption('apiKeys', ': at least one API key is required');
  const keys = apiKeys.map(keyCodes);
  // The header as clients send it, `Bearer <key>`, for each key: the one compare that accepts at once (its prefix
  // checked first, so only the token's code units are compared).
  const headers = apiKeys.map((key) => keyCodes(BEARER_PREFIX + key));
  return (authorization) => {
    // Every other header, a refused one included, is read by the pattern below, which gives the same answer for
    // these (keys are visible ASCII: createMock checks them).
    if (authorization?.startsWith(BEARER_PREFIX) && matchesAny(authorization, headers, BEARER_PREFIX.length))
      return null;
    if (authorization === undefined || authorization.trim() === '') return 'missing';
    const match = BEARER.exec(authorization);
    if (!match) return 'scheme';
    return matchesAny(match[1]!.trim(), keys) ? null : 'invalid';
  };
}

/** The message and `WWW-Authenticate` challenge for a failure (RFC 6750 §3). */
export function describeAuthFailure(failure: Exclude<AuthFailure, null>): { message: string; challenge: string } {
  const realm = 'Bearer realm="petstore"';
  switch (failure) {
    case 'missing':
      return { message: 'API key missing: send Authorization: Bearer <API_KEY>', challenge: realm };
    case 'scheme':
      return { message: 'Authorization must use the Bearer scheme: Authorization: Bearer <API_KEY>', challenge: realm };
    case 'invalid':
      return { message: 'API key invalid', challenge: `${realm}, error="invalid_token"` };
  }
}
