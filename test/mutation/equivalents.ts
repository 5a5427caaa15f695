/**
 * The mutants of the mock that no server could get wrong in a way the contract forbids, each with its reason: what
 * `npm run mutation` counts as equivalent. Keyed by the file, the mutator and the code it changed (not Stryker's
 * ids or line numbers, which move with every edit): an entry that stops matching is reported, to be removed.
 */

/** Why a surviving mutant is no bug a server could have. */
export type EquivalentKind =
  /** It changes the text of a message, which the contract leaves free. */
  | 'message'
  /** It turns off a fast path whose slow path gives the same answer. */
  | 'fast path'
  /** It makes the other choice where the interface leaves it open (docs/ARCHITECTURE's table). */
  | 'open choice'
  /** It changes what no request over HTTP can reach (ids exhausted, a full store, the store's own API). */
  | 'unreachable';

/** One equivalent mutant (or several alike): where, what it changed, and why that is no bug. */
export interface Equivalent {
  /** The mutated file, from the repository's root. */
  file: string;
  /** Stryker's mutator (StringLiteral, ConditionalExpression, ...); any when absent. */
  mutator?: string;
  /** Text found in the mutated code (whitespace folded). */
  code: string;
  /** The replacement, when only one of the mutants of that code is equivalent. */
  replacement?: string;
  kind: EquivalentKind;
  reason: string;
}

const AUTH = 'mock/core/auth.ts';

/** The list. */
export const EQUIVALENTS: readonly Equivalent[] = [
  {
    file: AUTH,
    code: 'return constantTimeEqualFrom(candidate, 0, key);',
    kind: 'unreachable',
    reason: 'constantTimeEqual is for tests: the authenticator calls constantTimeEqualFrom itself',
  },
  {
    file: AUTH,
    code: 'apiKeys.length === 0',
    kind: 'unreachable',
    reason: 'a mock without keys is refused when it is made, before any request',
  },
  { file: AUTH, mutator: 'StringLiteral', code: "'apiKeys'", kind: 'unreachable', reason: 'an option error' },
  {
    file: AUTH,
    mutator: 'StringLiteral',
    code: "': at least one API key is required'",
    kind: 'unreachable',
    reason: 'an option error',
  },
  {
    file: AUTH,
    code: 'authorization?.startsWith(BEARER_PREFIX) && isVisibleAscii(authorization, BEARER_PREFIX.length)',
    kind: 'fast path',
    reason: 'the pattern after it reads `Bearer <key>` the same way',
  },
  {
    file: AUTH,
    mutator: 'StringLiteral',
    code: "'Bearer '",
    kind: 'message',
    reason: 'an empty prefix sends Basic credentials to the key compare: 401 all the same, with the wrong-key message',
  },
  {
    file: AUTH,
    code: "authorization.trim() === ''",
    kind: 'message',
    reason: 'which failure (missing or scheme) only picks the 401 message and challenge',
  },
  {
    file: AUTH,
    code: "authorization === undefined || authorization.trim() === ''",
    kind: 'message',
    reason: 'which failure (missing or scheme) only picks the 401 message and challenge',
  },
  {
    file: AUTH,
    mutator: 'MethodExpression',
    code: 'match[1]!.trim()',
    kind: 'unreachable',
    reason: 'HTTP parsers drop the whitespace that ends a field value (RFC 9110 §5.5), so no token ends in it',
  },
  {
    file: AUTH,
    mutator: 'Regex',
    code: '/^bearer +(\\S.*)$/i',
    replacement: '/^bearer +(\\S.*)/i',
    kind: 'unreachable',
    reason: '`.*` reads to the end already: only a line break would stop it, and no field value holds one',
  },
  {
    file: AUTH,
    code: "case 'missing':",
    kind: 'message',
    reason: "a missing key answered with the next failure's message: still 401 with a Bearer challenge",
  },
  {
    file: AUTH,
    code: "case 'scheme':",
    kind: 'message',
    reason: 'a Basic credential answered with the wrong-key message and challenge: still 401 with a Bearer challenge',
  },
  ...[
    "'API key missing: send Authorization: Bearer <API_KEY>'",
    "'Authorization must use the Bearer scheme: Authorization: Bearer <API_KEY>'",
    "'API key invalid'",
  ].map(
    (code): Equivalent => ({ file: AUTH, mutator: 'StringLiteral', code, kind: 'message', reason: 'message text' }),
  ),
  {
    file: AUTH,
    mutator: 'MethodExpression',
    code: 'authorization?.startsWith(BEARER_PREFIX)',
    kind: 'fast path',
    reason: 'the pattern after it reads `Bearer <key>` the same way',
  },
  ...['text.length <= start', 'code < 0x21 || code > 0x7e', 'code < 0x21', 'code > 0x7e'].map(
    (code): Equivalent => ({
      file: AUTH,
      code,
      kind: 'open choice',
      reason:
        'isVisibleAscii only picks the fast path: a mutant changes the answer only for a token after two spaces or with a control character, where the contract gives the form `Bearer <API_KEY>` (one space) and the suite requires nothing',
    }),
  ),
];
