/**
 * Bearer API key checks (RFC 6750): the scheme name is matched without regard
 * to case (RFC 9110 §11.1), and keys are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Why a request was not authenticated, or `null` when it was. */
export type AuthFailure = 'missing' | 'scheme' | 'invalid' | null;

/** Checks an `Authorization` header against the configured keys. */
export type Authenticator = (authorization: string | undefined) => AuthFailure;

const BEARER = /^bearer +(\S.*)$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Builds an authenticator for `apiKeys`; each check compares SHA-256 digests in constant time. */
export function createAuthenticator(apiKeys: readonly string[]): Authenticator {
  if (apiKeys.length === 0) throw new Error('at least one API key is required');
  const digests = apiKeys.map(digest);
  return (authorization) => {
    if (authorization === undefined || authorization.trim() === '') return 'missing';
    const match = BEARER.exec(authorization);
    if (!match) return 'scheme';
    const candidate = digest(match[1]!.trim());
    let ok = false;
    // Every key is compared, so the time taken does not tell which one matched.
    for (const key of digests) ok = timingSafeEqual(candidate, key) || ok;
    return ok ? null : 'invalid';
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
