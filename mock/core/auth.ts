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
 * Whether `candidate` equals `key`, reading every code unit of the candidate and
 * folding it into one difference, with no early exit: how much of a wrong key was
 * right does not show in the time taken, and the key is read as many times as the
 * candidate is long, whatever its own length. (Going back to the key's first code
 * unit after its last is a branch, as the remainder it replaced was a division:
 * neither depends on what the key holds.)
 */
export function constantTimeEqual(candidate: string, key: string): boolean {
  return constantTimeEqualFrom(candidate, 0, key);
}

/** {@link constantTimeEqual} for the candidate `text.slice(start)`, without making that string. */
function constantTimeEqualFrom(text: string, start: number, key: string): boolean {
  return (compareFrom(text, start, key) & ~OUTSIDE) === 0;
}

/** The bit {@link compareFrom} sets for a candidate holding a code unit that is not visible ASCII: the sign bit. */
const OUTSIDE = 1 << 31;

/**
 * How the candidate `text.slice(start)` differs from `key`: 0 when it is the key, and {@link OUTSIDE} set besides
 * when the candidate holds a code unit that is not visible ASCII (a space, a control, a line break, anything past
 * `~`). One pass: every code unit of the candidate is read once and folded into both, with no early exit, so the
 * time taken depends on the candidate's length alone.
 */
function compareFrom(text: string, start: number, key: string): number {
  let difference = (text.length - start) ^ key.length;
  let outside = 0;
  // The key's code units in turn, from its first again after its last: a counter, not a remainder (a division per
  // code unit cost more than the rest of the check).
  const last = key.length === 0 ? 0 : key.length - 1;
  for (let i = start, k = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    difference |= code ^ key.charCodeAt(k);
    // Negative once a code unit is below `!` or above `~`.
    outside |= (code - 0x21) | (0x7e - code);
    k = k === last ? 0 : k + 1;
  }
  return difference | (outside & OUTSIDE);
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
    // As clients send it (`Bearer <token>`, the token visible ASCII, nothing to trim): what the pattern below would
    // take, decided in the same pass as the compare. Every key is compared, so the time does not tell which matched.
    if (
      authorization !== undefined &&
      authorization.length > BEARER_PREFIX.length &&
      authorization.startsWith(BEARER_PREFIX)
    ) {
      let ok = false;
      let seen = 0;
      for (const key of keys) {
        const compared = compareFrom(authorization, BEARER_PREFIX.length, key);
        ok = compared === 0 || ok;
        seen |= compared;
      }
      // A token with a space or a control character in it (`Bearer  KEY`, `Bearer KEY `) is the pattern's to read.
      if ((seen & OUTSIDE) === 0) return ok ? null : 'invalid';
    }
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
