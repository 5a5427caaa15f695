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
 * Whether `candidate` equals `key`, in time that depends only on the candidate's
 * length: every code unit of the candidate is read and folded into one difference,
 * with no early exit, so neither how much of a wrong key was right nor the key's
 * own length shows in the time taken.
 */
export function constantTimeEqual(candidate: string, key: string): boolean {
  return constantTimeEqualFrom(candidate, 0, key);
}

/** {@link constantTimeEqual} for the candidate `text.slice(start)`, without making that string. */
function constantTimeEqualFrom(text: string, start: number, key: string): boolean {
  let difference = (text.length - start) ^ key.length;
  const keyLength = key.length || 1;
  for (let i = start; i < text.length; i++) {
    difference |= text.charCodeAt(i) ^ key.charCodeAt((i - start) % keyLength);
  }
  return difference === 0;
}

/**
 * Whether `text` from `start` on is one or more visible ASCII characters: no space, control or line break.
 * It stops at the first other character: that tells a caller only about what it sent, never about a key.
 */
function isVisibleAscii(text: string, start: number): boolean {
  if (text.length <= start) return false;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

const BEARER_PREFIX = 'Bearer ';

/** Builds an authenticator for `apiKeys`; each check compares the token with every key in constant time. */
export function createAuthenticator(apiKeys: readonly string[]): Authenticator {
  if (apiKeys.length === 0) throw badOption('apiKeys', ': at least one API key is required');
  const keys = [...apiKeys];
  const matchesFrom = (text: string, start: number): boolean => {
    let ok = false;
    // Every key is compared, so the time taken does not tell which one matched.
    for (const key of keys) ok = constantTimeEqualFrom(text, start, key) || ok;
    return ok;
  };
  return (authorization) => {
    // As clients send it (`Bearer <token>`, nothing to trim): what the pattern below would take, without it.
    if (authorization?.startsWith(BEARER_PREFIX) && isVisibleAscii(authorization, BEARER_PREFIX.length))
      return matchesFrom(authorization, BEARER_PREFIX.length) ? null : 'invalid';
    if (authorization === undefined || authorization.trim() === '') return 'missing';
    const match = BEARER.exec(authorization);
    if (!match) return 'scheme';
    return matchesFrom(match[1]!.trim(), 0) ? null : 'invalid';
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
