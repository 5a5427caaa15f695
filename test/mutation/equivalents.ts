/**
 * The mutants of the mock that no server could get wrong in a way the contract forbids, each with its reason: what
 * `npm run mutation` counts as equivalent. Keyed by the file, the enclosing function, the mutator and the code it changed (not Stryker's
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
  /** The top-level function the code is in, where the same code could be elsewhere in the file; any when absent. */
  function?: string;
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
const QUERY = 'mock/core/query.ts';
const RESPONSES = 'mock/core/responses.ts';
const LISTING = 'mock/core/listing.ts';
const HANDLER = 'mock/core/handler.ts';
const OPERATIONS = 'mock/core/operations.ts';
const STORE = 'mock/core/store.ts';
const SERVER = 'mock/node/server.ts';
const EXACT = 'mock/core/exact-numbers.ts';
const LAYERS = 'mock/core/layers.ts';

/** What only the mock's own layers read: the interface defines none of them, and the suite's mock asks for none. */
const OWN_LAYERS =
  "changes only the mock's own layers (CORS, control, journal, coverage, Pact, and latency, Prefer, scenarios, chaos and the rate limit, which are off unless asked): the interface defines none of them and the architecture notes' table checks none, so a request of the interface gets the same answer";

/** One entry for each `[code, replacement]`, alike in all else. */
function pairs(
  changes: readonly (readonly [code: string, replacement: string])[],
  rest: Omit<Equivalent, 'code' | 'replacement'>,
): Equivalent[] {
  return changes.map(([code, replacement]) => ({ ...rest, code, replacement }));
}

/** The architecture notes' row on a wrong method: the suite sends none, and may only advise on one. */
const WRONG_METHOD =
  "a method the route does not serve (405, Allow, OPTIONS, HEAD): the interface defines GET and POST only, and the architecture notes' table leaves an unknown route or wrong method unchecked";

/** The list. */
export const EQUIVALENTS: readonly Equivalent[] = [
  // constantTimeEqual is for tests (test/reliability/mock-auth-constant-time.test.ts): the authenticator calls
  // difference itself.
  ...pairs(
    [
      ["{ return difference(candidate, typeof key === 'string' ? keyCodes(key) : key) === 0; }", '{}'],
      ["difference(candidate, typeof key === 'string' ? keyCodes(key) : key) === 0", 'true'],
      ["difference(candidate, typeof key === 'string' ? keyCodes(key) : key) === 0", 'false'],
      [
        "difference(candidate, typeof key === 'string' ? keyCodes(key) : key) === 0",
        "difference(candidate, typeof key === 'string' ? keyCodes(key) : key) !== 0",
      ],
      ["typeof key === 'string'", 'true'],
      ["typeof key === 'string'", 'false'],
      ["typeof key === 'string'", "typeof key !== 'string'"],
      ["'string'", '""'],
    ],
    {
      file: AUTH,
      function: 'constantTimeEqual',
      kind: 'unreachable',
      reason: 'constantTimeEqual is for tests: the authenticator calls difference itself',
    },
  ),
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
  // The fast path for `Bearer <key>` taken never, or tried on other headers: it only accepts, and the pattern after
  // it reads every header the same way, a refused one included.
  ...pairs(
    [
      ['authorization?.startsWith(BEARER_PREFIX) && matchesAny(authorization, headers, BEARER_PREFIX.length)', 'false'],
      // No header's codes to compare against (`'Bearer ' - key` is NaN): the fast path never accepts.
      ['BEARER_PREFIX + key', 'BEARER_PREFIX - key'],
      // Only for a header ending in `Bearer `: its token would end in a space, which no key holds.
      ['authorization?.startsWith(BEARER_PREFIX)', 'authorization?.endsWith(BEARER_PREFIX)'],
    ],
    { file: AUTH, kind: 'fast path', reason: 'the pattern after it reads `Bearer <key>` the same way' },
  ),
  // The key's codes padded further, or one code unit more written or read: past the key the codes are zeros (one at
  // least), read only for a candidate longer than the key, which the length term refuses; a read past the
  // candidate's end is NaN, 0 to `^`, against a zero.
  ...pairs(
    [
      ['size <= key.length', 'size < key.length'],
      ['i < key.length', 'i <= key.length'],
      ['i < text.length', 'i <= text.length'],
    ],
    {
      file: AUTH,
      kind: 'unreachable',
      reason:
        'reads or writes a padding zero of the key: the compare differs only for a candidate of another length than the key, which the length term refuses',
    },
  ),
  {
    file: AUTH,
    code: "authorization.trim() === ''",
    kind: 'message',
    reason: 'which failure (missing or scheme) only picks the 401 message and challenge',
  },
  {
    file: AUTH,
    mutator: 'MethodExpression',
    code: 'authorization.trim()',
    kind: 'message',
    reason: 'a blank header read as a scheme failure rather than a missing key: still 401 with a Bearer challenge',
  },
  {
    file: AUTH,
    code: "''",
    replacement: '"Stryker was here!"',
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
    mutator: 'Regex',
    code: '/^bearer +(\\S.*)$/i',
    replacement: '/^bearer (\\S.*)$/i',
    kind: 'open choice',
    reason:
      'one space only after the scheme: `Bearer  KEY` (two spaces) refused, where the contract gives the form `Bearer <API_KEY>` and the suite requires nothing',
  },
  // exact-numbers.ts: createPet walks the body's text for the root object's categoryId (depth 1) once JSON.parse has
  // accepted it and the schema found a safe integer there; the control endpoint (/__control, the mock's own) walks
  // pets in an array (depth 2) and names the place.
  {
    file: EXACT,
    function: 'describePath',
    code: '',
    kind: 'unreachable',
    reason:
      "names an inexact number's place for the control endpoint only (the mock's own API): createPet names categoryId itself",
  },
  ...[
    ['!match', undefined],
    ['false', 'true'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: EXACT,
      function: 'isExactSafeInteger',
      code: code!,
      replacement,
      kind: 'unreachable',
      reason:
        'every number the walk reads from text JSON.parse accepted is a JSON number, which the pattern always matches',
    }),
  ),
  ...['/-?([0-9]+)(?:\\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/', '/^-?([0-9]+)(?:\\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?/'].map(
    (replacement): Equivalent => ({
      file: EXACT,
      mutator: 'Regex',
      code: '/^-?([0-9]+)',
      replacement,
      kind: 'unreachable',
      reason:
        'the walk hands over a whole JSON number, which the pattern matches from its start to its end without the anchors',
    }),
  ),
  {
    file: EXACT,
    function: 'isExactSafeInteger',
    code: "'0'",
    replacement: '""',
    kind: 'unreachable',
    reason:
      "no input answers differently: Number('') is 0 as Number('0') is, and a value's zeros matter only beyond 2^53 - 1, which newPetProblem refuses first",
  },
  ...[
    ["BigInt(digits + '0'.repeat(exponent)) <= MAX_SAFE", 'true'],
    ["digits + '0'.repeat(exponent)", undefined],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: EXACT,
      function: 'isExactSafeInteger',
      code: code!,
      replacement,
      kind: 'unreachable',
      reason:
        'differs only for an integer beyond 2^53 - 1, which the schema check before it refuses (Number.isSafeInteger of the parsed value, operations.ts)',
    }),
  ),
  {
    file: EXACT,
    function: 'isExactSafeInteger',
    code: 'digits.length + exponent',
    kind: 'fast path',
    reason: 'the BigInt comparison after it gives the same answer: the length test spares building a huge one',
  },
  {
    file: EXACT,
    function: 'findInexactInteger',
    code: '/[0-9][.eE]|[0-9]{16}/',
    kind: 'fast path',
    reason:
      "walking more bodies, or every body (each inexact number is followed by `,` `}` or a space, and a NewPet's `name` and `categoryId` members put a letter before an `e`), gives the same answer",
  },
  ...['i < text.length', 'next < text.length', 'end < text.length'].map(
    (code): Equivalent => ({
      file: EXACT,
      code,
      kind: 'unreachable',
      reason:
        "one step past the end of valid JSON text: nothing there starts a string, container or number, and a NewPet's text ends with `}`, never inside a string or a number",
    }),
  ),
  {
    file: EXACT,
    function: 'stringEnd',
    code: 'text.length - 1',
    kind: 'unreachable',
    reason: 'an unterminated string: JSON.parse accepted the text, so every string closes',
  },
  // Arrays and their indexes: createPet reads numbers of the root object (depth 1), never inside an array.
  ...[
    "{ array: ch === '[', index: 0, key: '' }",
    "ch === '['",
    "'['",
    "ch === ','",
    "','",
    '{ const top = frames.at(-1)!; if (top.array) top.index++; }',
    'top.array',
    'top.index++',
  ].map(
    (code): Equivalent => ({
      file: EXACT,
      function: 'findInexactInteger',
      code,
      kind: 'unreachable',
      reason:
        "differs only in where a number inside an array is: createPet reads the root object's members (depth 1), the control endpoint (the mock's own) arrays",
    }),
  ),
  {
    file: EXACT,
    function: 'findInexactInteger',
    mutator: 'StringLiteral',
    code: "''",
    replacement: '"Stryker was here!"',
    kind: 'unreachable',
    reason: "a container's first key: an object's is set before its first value, an array's is never read",
  },
  {
    file: EXACT,
    function: 'findInexactInteger',
    code: "ch === '-'",
    kind: 'unreachable',
    reason:
      'no input answers differently: the digits after a skipped `-` are read as the number, and exactness and the safe range are the same for x and -x',
  },
  {
    file: EXACT,
    function: 'findInexactInteger',
    mutator: 'StringLiteral',
    code: "'-'",
    kind: 'unreachable',
    reason:
      'no input answers differently: the digits after a skipped `-` are read as the number, and exactness and the safe range are the same for x and -x',
  },
  // The delete for a key given again: at other depths or with nothing found it finds nothing; not at all, only the
  // second categoryId is kept from being read.
  ...[
    ['found.size > 0 && frames.length === depth', 'true'],
    ['found.size > 0 && frames.length === depth', 'found.size > 0 || frames.length === depth'],
    ['found.size > 0', 'true'],
    ['found.size > 0', 'found.size >= 0'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: EXACT,
      function: 'findInexactInteger',
      code: code!,
      replacement,
      kind: 'unreachable',
      reason:
        'no input answers differently: found holds only depth-1 paths, and deleting from an empty map does nothing',
    }),
  ),
  {
    file: EXACT,
    function: 'findInexactInteger',
    code: 'frames.length === depth',
    replacement: 'true',
    kind: 'fast path',
    reason:
      'the same answer: a delete at every depth finds only depth-1 paths in found, and paths made for numbers at every depth are kept only for categoryId at depth 1',
  },
  ...[
    ['found.size > 0 && frames.length === depth', 'false'],
    ['found.size > 0', 'found.size <= 0'],
    ['frames.length === depth', 'frames.length !== depth'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: EXACT,
      function: 'findInexactInteger',
      code: code!,
      replacement,
      kind: 'open choice',
      reason:
        'differs only for a body naming categoryId twice, an inexact value first: names SHOULD be unique and receivers differ on a repeated one (RFC 8259 §4); the suite sends none',
    }),
  ),
  {
    file: EXACT,
    function: 'findInexactInteger',
    code: 'wanted(path)',
    kind: 'open choice',
    reason:
      "an inexact number in an unknown member refused too: the interface says nothing of unknown members and the architecture notes' table requires only that a client id never overwrite an animal (the suite accepts 400)",
  },
  ...['{ path, text: number.slice(0, 40) }', 'number.slice(0, 40)'].map(
    (code): Equivalent => ({ file: EXACT, code, kind: 'message', reason: 'what the 400 message quotes' }),
  ),
  // layers.ts, originForm: the absolute-form target (RFC 9112 §3.2.2), which listPets.absoluteForm sends.
  {
    file: LAYERS,
    function: 'originForm',
    code: "'/'",
    replacement: '""',
    kind: 'message',
    reason:
      'an absolute-form target with an empty path (`http://host`) read as the path "" rather than "/": no operation serves either, and both get the unknown route\'s 404 Error, whose message names the path',
  },
  {
    file: LAYERS,
    function: 'originForm',
    mutator: 'Regex',
    code: String.raw`/^https?:\/\/[^/?#]*(.*)$/i`,
    replacement: String.raw`/^https?:\/\/[^/?#]*(.*)/i`,
    kind: 'unreachable',
    reason:
      "without `$`, `.*` stops at a line break: no request target holds one (RFC 9112 §3.2 has no whitespace in it; Node's parser and undici refuse a target with CR or LF)",
  },
  {
    file: LAYERS,
    function: 'originForm',
    mutator: 'Regex',
    code: String.raw`/^https?:\/\/[^/?#]*(.*)$/i`,
    replacement: String.raw`/https?:\/\/[^/?#]*(.*)$/i`,
    kind: 'open choice',
    reason:
      "an absolute-form target of another scheme that ends in http (`xhttp://host/v1/pets`) read as its path: the interface is served over http and https only, and what a server answers a URI of a scheme it does not serve is not the contract's (RFC 9110 §7.4 leaves 421 or another refusal to it); the mock answers 404",
  },
  // layers.ts: the pipeline around the handler; the handler routes and answers every request of the interface itself.
  ...['forcedBy', 'anyApplied', 'thenAnswer', 'sleep', 'headerValue', 'isShaped', 'chainOf'].map(
    (fn): Equivalent => ({ file: LAYERS, function: fn, code: '', kind: 'open choice', reason: OWN_LAYERS }),
  ),
  ...["['scenario', 'prefer', 'chaos', 'rateLimit']", "'scenario'", "'prefer'", "'chaos'", "'rateLimit'"].map(
    (code): Equivalent => ({ file: LAYERS, code, kind: 'open choice', reason: OWN_LAYERS }),
  ),
  {
    file: LAYERS,
    function: 'contextMaker',
    code: 'apiPath}/',
    kind: 'open choice',
    reason: `every path counted as the API's: ${OWN_LAYERS}`,
  },
  ...[
    'path === apiPath',
    'path.startsWith(under)',
    'route !== undefined',
    "request.method === 'HEAD'",
    "'HEAD'",
    "'GET'",
  ].map(
    (code): Equivalent => ({
      file: LAYERS,
      function: 'createContext',
      code,
      kind: 'open choice',
      reason: `the context's \`api\` and \`operation\`, which only the layers read: ${OWN_LAYERS}`,
    }),
  ),
  {
    file: LAYERS,
    function: 'createContext',
    code: 'path.length > apiPath.length',
    kind: 'fast path',
    reason: 'the matcher finds no route for the base path itself or anything shorter either',
  },
  {
    file: LAYERS,
    function: 'createContext',
    code: 'known === undefined',
    replacement: 'true',
    kind: 'fast path',
    reason: 'the memo of routes: the matcher is a function of the path alone, so matching again gives the same route',
  },
  {
    file: LAYERS,
    function: 'createContext',
    code: "rawQuery === ''",
    kind: 'fast path',
    reason: 'the memo of query texts: a query passed on as the string first seen, or as sent, is the same text',
  },
  {
    file: LAYERS,
    function: 'createContext',
    mutator: 'StringLiteral',
    code: "''",
    kind: 'fast path',
    reason: 'the memo of query texts: whether an empty query is kept only decides whether the memo is looked in',
  },
  ...['compose', 'contextMaker'].map(
    (fn): Equivalent => ({
      file: LAYERS,
      function: fn,
      mutator: 'StringLiteral',
      code: "'/v1'",
      kind: 'unreachable',
      reason: 'createMock always passes the API path (mock.ts)',
    }),
  ),
  ...[
    'divert === undefined',
    '{ const target = split(originForm(request.url)); return chain(contextOf(request, target.path, target.query)); }',
  ].map(
    (code): Equivalent => ({
      file: LAYERS,
      function: 'compose',
      code,
      kind: 'open choice',
      reason:
        "the pipeline of a mock made without sessions (createMock makes them unless told not to), or sessions never diverted to: sessions are the mock's own feature, which the architecture notes' table leaves unchecked",
    }),
  ),
  {
    file: LAYERS,
    function: 'splitTarget',
    mutator: 'StringLiteral',
    code: "''",
    kind: 'open choice',
    reason:
      "a target without `?` read as a query naming one unknown, valueless parameter: the listing ignores it (the table's tolerated answer to a parameter the contract does not define), and createPet and getPet read no query",
  },
  {
    file: LAYERS,
    function: 'originForm',
    code: 'url.charCodeAt(0) === SLASH',
    replacement: 'false',
    kind: 'fast path',
    reason: 'the pattern after it returns an origin-form target as it is',
  },
  // query.ts: parseQuery is URLSearchParams's reading without building one; its hand-written loop is a fast path.
  {
    file: QUERY,
    mutator: 'MethodExpression',
    code: "query.startsWith('?')",
    kind: 'open choice',
    reason:
      "differs only for a query beginning or ending with `?`: the leading one (`??limit=5`) is a name `?limit` to WHATWG's parser and dropped by URLSearchParams's constructor, which the interface leaves open; a trailing one ends an unknown parameter or an invalid value, which may be refused (400) or answered within 100, the table's rows",
  },
  {
    file: QUERY,
    mutator: 'MethodExpression',
    code: 'query.slice(1)',
    kind: 'open choice',
    reason: "`??limit=5`: whether the second `?` starts the name `?limit` is the parser's choice (see above)",
  },
  {
    file: QUERY,
    code: "raw === ''",
    kind: 'fast path',
    reason: 'the loop finds no parameter in an empty query either',
  },
  {
    file: QUERY,
    mutator: 'StringLiteral',
    code: "''",
    replacement: '"Stryker was here!"',
    kind: 'message',
    reason:
      'the empty-query test against that text (a query naming no parameter the API reads) and the value of a valueless parameter: both values are invalid as limit and as status, so only the 400 message differs',
  },
  {
    file: QUERY,
    code: "raw.includes('%') || raw.includes('+')",
    replacement: 'true',
    kind: 'fast path',
    reason: 'URLSearchParams for every query: the same values',
  },
  ...["'%'", "'+'"].map(
    (code): Equivalent => ({
      file: QUERY,
      mutator: 'StringLiteral',
      code,
      replacement: '""',
      kind: 'fast path',
      reason: "includes('') is always true: URLSearchParams for every query, the same values",
    }),
  ),
  {
    file: QUERY,
    code: 'from <= raw.length',
    replacement: 'from < raw.length',
    kind: 'fast path',
    reason: 'the pass it skips reads the empty segment after a final `&`, which holds no parameter',
  },
  {
    file: QUERY,
    code: 'end > from',
    kind: 'fast path',
    reason: 'an empty segment (`&&`) gives the name `` (empty), which no parameter the API reads has',
  },
  {
    file: QUERY,
    code: 'equals < end',
    replacement: 'equals <= end',
    kind: 'unreachable',
    reason: '`equals` is where a `=` is and `end` where a `&` is, or the end: never the same place',
  },
  ...[
    ['equals !== -1', 'true'],
    ['-1', '+1'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: QUERY,
      code: code!,
      replacement,
      kind: 'open choice',
      reason:
        'differs only when no `=` follows: a valueless parameter is then ignored (not last) or read as the name cut by one character with the whole query as its value (last; `limitX` as an invalid limit): a valueless or unknown parameter may be refused (400) or ignored, the tolerated answers to parameters the contract does not define',
    }),
  ),
  ...[
    ['equals < end', 'true'],
    ['equals !== -1 && equals < end', 'equals !== -1 || equals < end'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: QUERY,
      code: code!,
      replacement,
      kind: 'open choice',
      reason:
        'a valueless parameter with a `=` after it (`status&limit=2`) is ignored, its name run on into the next, rather than read as empty, and the next is still read: an empty limit or status may be refused or answered within 100, and the ignored one gets that 200',
    }),
  ),
  // listing.ts
  {
    file: LISTING,
    code: '(error: unknown) => storeFailure(error, store.where)',
    kind: 'unreachable',
    reason: 'the memory store answers at once and never fails: no request makes a store fail',
  },
  {
    file: LISTING,
    code: 'entry === undefined',
    kind: 'fast path',
    reason: "the memo's miss: the checks made again give the same limit and status",
  },
  // responses.ts
  {
    file: RESPONSES,
    function: 'jsonResponse',
    code: 'headers !== undefined',
    kind: 'fast path',
    reason: 'Object.assign with undefined adds nothing',
  },
  {
    file: RESPONSES,
    function: 'refuseContentCoding',
    mutator: 'StringLiteral',
    code: 'is not supported: send the JSON uncompressed',
    kind: 'message',
    reason: 'message text',
  },
  {
    file: RESPONSES,
    function: 'refuseContentCoding',
    code: 'text.slice(0, 100)',
    kind: 'message',
    reason: 'how much of the header the message quotes',
  },
  {
    file: RESPONSES,
    function: 'refuseContentCoding',
    code: '',
    kind: 'open choice',
    reason:
      'which content codings a server takes is its own (RFC 9110 §8.4: it MAY answer 415 to one it does not): the suite sends no Content-Encoding, and a coded body read as plain fails as JSON (400); `identity` is reserved for Accept-Encoding (RFC 9110 §12.5.3)',
  },
  {
    file: RESPONSES,
    function: 'isJsonMediaType',
    mutator: 'BooleanLiteral',
    code: 'false',
    kind: 'open choice',
    reason:
      'a body with no Content-Type read as JSON: RFC 9110 §8.3 lets a server examine the data, and the table accepts a valid NewPet of another type',
  },
  {
    file: RESPONSES,
    function: 'isJsonMediaType',
    code: 'contentType === JSON_TYPE',
    replacement: 'false',
    kind: 'fast path',
    reason: 'the parse after it reads `application/json` the same way',
  },
  ...['true', 'contentType !== JSON_TYPE'].map(
    (replacement): Equivalent => ({
      file: RESPONSES,
      function: 'isJsonMediaType',
      code: 'contentType === JSON_TYPE',
      replacement,
      kind: 'open choice',
      reason:
        "every media type read as JSON (`application/json` itself by the parse after): the table's non-JSON row accepts a valid NewPet sent as another type",
    }),
  ),
  {
    file: RESPONSES,
    function: 'isJsonMediaType',
    code: 'type === JSON_TYPE || /^application\\/[a-z0-9.!#$&^_-]+\\+json$/.test(type)',
    replacement: 'true',
    kind: 'open choice',
    reason: "every media type read as JSON: the table's non-JSON row accepts a valid NewPet sent as another type",
  },
  {
    file: RESPONSES,
    function: 'isJsonMediaType',
    mutator: 'Regex',
    code: '/^application\\/[a-z0-9.!#$&^_-]+\\+json$/',
    kind: 'open choice',
    reason:
      'which `application/*+json` types a server reads as JSON besides `application/json` (the contract names only that one): refusing them is a 400 or 415 the table accepts, reading more is a valid NewPet accepted',
  },
  // handler.ts
  {
    file: HANDLER,
    mutator: 'StringLiteral',
    code: "'/v1'",
    kind: 'unreachable',
    reason: 'createMock always passes the base path (mock.ts)',
  },
  ...['`no route for ', ' is not allowed on '].map(
    (code): Equivalent => ({ file: HANDLER, mutator: 'StringLiteral', code, kind: 'message', reason: 'message text' }),
  ),
  {
    file: HANDLER,
    code: 'default: return errorResponse(404, ErrorCode.routeNotFound',
    kind: 'unreachable',
    reason: 'every routed operation is one of the three cases above it',
  },
  ...[
    '(op: OperationInfo) => removed?.has(op.operationId) === true',
    'removed?.has(op.operationId) === true',
    '[...route.operations.values()]',
    '!gone(op)',
    'route && (removed === undefined || serves(route))',
    'removed === undefined',
  ].map(
    (code): Equivalent => ({
      file: HANDLER,
      code,
      kind: 'open choice',
      reason:
        "differs only for an operation past its sunset (`asOf` from 5 December 2030; no route is undefined otherwise): the architecture notes' table leaves what a server does then unchecked",
    }),
  ),
  {
    file: HANDLER,
    function: 'createHandler',
    mutator: 'BooleanLiteral',
    code: 'true',
    replacement: 'false',
    kind: 'open choice',
    reason:
      "`gone`'s `=== true`: with no operation past its sunset there is no set to ask, so it differs only for one past it (`asOf` from 5 December 2030), which the architecture notes' table leaves unchecked",
  },
  {
    file: HANDLER,
    code: 'known === undefined',
    kind: 'fast path',
    reason: 'the memo of served templates: deciding again gives the same answer',
  },
  ...[
    "request.method === 'OPTIONS'",
    "'OPTIONS'",
    '!operation || gone(operation)',
    "const allow = served.allow.join(', ');",
    "', '",
    '{ allow }',
  ].map(
    (code): Equivalent => ({
      file: HANDLER,
      function: 'createHandler',
      code,
      kind: 'open choice',
      reason: WRONG_METHOD,
    }),
  ),
  { file: HANDLER, function: 'optionsResponse', code: '', kind: 'open choice', reason: WRONG_METHOD },
  // operations.ts
  ...[['single', 'values.length > 1', 'false']].map(
    ([fn, code, replacement]): Equivalent => ({
      file: OPERATIONS,
      function: fn,
      code: code!,
      replacement,
      kind: 'open choice',
      reason:
        "a repeated parameter read as its first value (`limit=1&limit=2` as 1): the table's row on repeated parameters accepts a 200 within the bounds",
    }),
  ),
  ...["typeof rawLimit === 'object'", "typeof rawStatus === 'object'", "'object'"].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'listQuery',
      code,
      kind: 'message',
      reason: "the repeated parameter's Error object then fails the digit pattern or the enumeration: 400 all the same",
    }),
  ),
  ...['/^[0-9]{1,6}$/', 'limit >= LIMIT.minimum'].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'listQuery',
      code,
      kind: 'open choice',
      reason:
        "a limit that is not an integer from 1 to 100 (`a5`, `5.0`, `0`) answered 200 with at most 100 items: the table's row on limit out of range or not an integer",
    }),
  ),
  {
    file: OPERATIONS,
    mutator: 'StringLiteral',
    code: 'rel="successor-version"',
    kind: 'open choice',
    reason: "the Link to getPet's successor is advice only (the table's row on the deprecated getPet)",
  },
  {
    file: OPERATIONS,
    mutator: 'StringLiteral',
    code: "'@0'",
    kind: 'open choice',
    reason: 'the Deprecation header (RFC 9745) is advice only: the interface says getPet is deprecated, not how',
  },
  // petIdOf: which path reads an int64 is a fast path; an id beyond int64 answered 404 is the table's open choice.
  ...[
    "rawId.startsWith('-')",
    "'-'",
    'rawId.length - 1',
    'digits > 18',
    'digits <= 15',
    "typeof id !== 'number'",
    'Number.isNaN(id)',
  ].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      code,
      kind: 'open choice',
      reason:
        "how many digits take the exact int64 check or the exact conversion: every int64 still reads as itself, and only an id beyond int64 may then get 404 instead of 400 (the table's malformed petId row: 400 or 404)",
    }),
  ),
  // outOfInt64 runs only for ids of 19 or 20 digits, all beyond 2^53: its mutants move the line between 400 and 404
  // there. Beyond int64 the table's malformed petId row accepts either; from 2^53 to int64's bounds, a 400 is the
  // refusal of an integer a server cannot hold exactly that the table allows for categoryId (Hono's zod `.int()`
  // refuses petId 2^63 - 1 so, reviewed), and a 404 is the contract's "cannot be found".
  {
    file: OPERATIONS,
    function: 'outOfInt64',
    code: '',
    kind: 'open choice',
    reason:
      "an id of 19 or 20 digits (beyond 2^53) answered 400 or 404: beyond int64 the table's malformed petId row, within it the refusal of an integer not held exactly that the table's categoryId row allows",
  },
  {
    file: OPERATIONS,
    code: '2n ** 63n - 1n',
    kind: 'open choice',
    reason:
      "2^63 and 2^63 + 1 looked up (404) rather than refused (400): the table's malformed petId row accepts either",
  },
  {
    file: OPERATIONS,
    function: 'exactSafe',
    code: '',
    kind: 'unreachable',
    reason:
      'differs only for an id of 16 or more digits near or beyond 2^53: ids are assigned by the service from 1 up, and no request of a run makes one that large (replacing the pets is the control API)',
  },
  ...[
    '(json) => petFound(json, rawId, link)',
    '(error) => storeFailure(error, store.where)',
    '(stored) => created(stored, basePath)',
  ].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      code,
      kind: 'unreachable',
      reason: 'the memory store answers at once and never fails: the branches for a store answering later are not run',
    }),
  ),
  ...['idsExhausted', 'storeFailure'].map(
    (fn): Equivalent => ({
      file: OPERATIONS,
      function: fn,
      code: '',
      kind: 'unreachable',
      reason:
        'a full store, ids exhausted or a database out of reach: no request of a run against the memory store makes one',
    }),
  ),
  {
    file: OPERATIONS,
    function: 'createPet',
    code: 'error instanceof StoreFullError || error instanceof IdsExhaustedError',
    kind: 'unreachable',
    reason: 'the memory store throws only when full or out of ids, which no request of a run makes',
  },
  {
    file: OPERATIONS,
    function: 'newPetOf',
    code: 'request.bodyTooLarge',
    kind: 'open choice',
    reason:
      "a body over the limit, cut off, read on and refused as not JSON or missing (400): the table's row accepts 400 or 413",
  },
  {
    file: OPERATIONS,
    function: 'newPetOf',
    mutator: 'StringLiteral',
    code: "', '",
    kind: 'open choice',
    reason:
      'how a repeated Content-Type (a singleton field, RFC 9110 §8.3) is joined: either way no media type, refused; the suite sends none',
  },
  ...[
    'request.body === undefined',
    'request.body.length === 0',
    'empty && contentType === undefined',
    'contentType === undefined',
  ].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'newPetOf',
      code,
      kind: 'open choice',
      reason:
        'which refusal an empty or unlabelled body gets first: an empty body is refused 400 (required, or not JSON) or 415 as another media type, and a valid NewPet without Content-Type may get 400 or 415 (RFC 9110 §8.3; createPet.noContentType accepts 201, 400 or 415)',
    }),
  ),
  ...['!isJsonMediaType(contentType)', 'return errorResponse( 415, ErrorCode.unsupportedMediaType'].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'newPetOf',
      code,
      kind: 'open choice',
      reason:
        "every media type read as JSON: the table's non-JSON row accepts a valid NewPet sent as another type, and what is not JSON is still refused 400",
    }),
  ),
  ...["'content-encoding'", 'coded'].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'newPetOf',
      code,
      replacement: code === 'coded' ? 'false' : undefined,
      kind: 'open choice',
      reason:
        'a coded body read as plain fails as JSON (400) instead of 415: which codings a server takes is its own (RFC 9110 §8.4); the suite sends no Content-Encoding',
    }),
  ),
  ...['empty', 'parsed instanceof Error'].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'newPetOf',
      mutator: 'ConditionalExpression',
      code,
      replacement: 'false',
      kind: 'message',
      reason: 'the empty body or the parse error then fails the parse or the NewPet schema: 400 all the same',
    }),
  ),
  {
    file: OPERATIONS,
    function: 'newPetOf',
    code: "'string'",
    kind: 'fast path',
    reason: 'the decoded text kept for the journal, which decodes the bytes again when it is not',
  },
  ...['path.length === 1', "path[0] === 'categoryId'"].map(
    (code): Equivalent => ({
      file: OPERATIONS,
      function: 'newPetOf',
      code,
      kind: 'open choice',
      reason:
        'an unknown top-level member holding a number JSON text does not hold exactly refused (400) too (a nested categoryId is never one, the walk stops at depth 1): unknown fields may be refused or ignored (the table), and no required case sends one',
    }),
  ),
  {
    file: OPERATIONS,
    function: 'decodeBody',
    code: "'string'",
    kind: 'unreachable',
    reason:
      'every adapter hands the body as bytes (node, undici, msw): a string body is only the one kept after this call',
  },
  ...['decodeBody', 'parseJson'].map(
    (fn): Equivalent => ({
      file: OPERATIONS,
      function: fn,
      mutator: 'BlockStatement',
      code: 'return error instanceof Error ? error : new Error(String(error));',
      kind: 'message',
      reason:
        'undefined instead of the Error: the parse or the NewPet schema after it refuses the body, 400 all the same',
    }),
  ),
  {
    file: OPERATIONS,
    function: 'newPetProblem',
    code: '!Number.isSafeInteger(categoryId)',
    kind: 'message',
    reason: 'findInexactInteger after it refuses the same categoryId (not exactly a safe integer) with its own message',
  },
  ...['newPetProblem', 'describeError'].map(
    (fn): Equivalent => ({
      file: OPERATIONS,
      function: fn,
      code: fn === 'newPetProblem' ? 'e.' : '',
      kind: 'message',
      reason: 'how the 400 message names what is wrong with the NewPet',
    }),
  ),
  ...[
    "'request body is larger than the limit'",
    "'a JSON request body (NewPet) is required'",
    'no pet with id',
    'must be a 64-bit integer, got',
    'limit must be an integer from',
    'status must be one of',
    "', '",
    'Content-Type must be application/json, got',
    "contentType ?? ''",
    "''",
    'request body is not valid JSON',
    'categoryId must be kept exactly',
    'to be kept exactly',
    "'; '",
    "'type'",
    "'format'",
    'must be given at most once',
  ].map((code): Equivalent => ({ file: OPERATIONS, code, kind: 'message', reason: 'message text' })),
  {
    file: OPERATIONS,
    function: 'created',
    code: '/pets/',
    kind: 'open choice',
    reason:
      'Location on a 201 is not in the interface, and RFC 9110 §15.3.2 lets the target URI stand for the created resource; the suite reads the Pet in the body',
  },
  // store.ts: over HTTP the run reaches add, getJson and listing; the rest is the store's own API (the control
  // endpoints, the Pact recorder, the database stores), a full store or ids exhausted.
  ...['petBytes'].map(
    (fn): Equivalent => ({
      file: STORE,
      function: fn,
      code: '',
      kind: 'unreachable',
      reason: 'a full store or ids exhausted: no request of a run against a store of 256 MiB with 190 pets makes one',
    }),
  ),
  ...[
    'return (this.#pet ??=',
    'this.#pet ??=',
    "'StoreFullError'",
    "'IdsExhaustedError'",
    'no pet id is left',
    'largest === undefined',
    'the pet store is full',
    '64 * 1024',
  ].map(
    (code): Equivalent => ({
      file: STORE,
      code,
      kind: 'unreachable',
      reason:
        "a full store, ids exhausted, the store's size option or StoredPet.pet (read by the Pact recorder, not by the three operations' answers)",
    }),
  ),
  ...['statusIndex', 'sortedById'].map(
    (fn): Equivalent => ({
      file: STORE,
      function: fn,
      code: fn === 'statusIndex' ? 'unknown pet status' : '',
      kind: 'unreachable',
      reason:
        "the store's own checks: the HTTP paths refuse an unknown status before the store, and the pets seeded or replaced (the control API) come sorted and unique",
    }),
  ),
  {
    file: STORE,
    function: 'statusIndex',
    code: 's === -1',
    kind: 'unreachable',
    reason: 'the HTTP paths refuse an unknown status before the store',
  },
  ...[
    '!Number.isSafeInteger(id)',
    "typeof input.name !== 'string'",
    '!Number.isSafeInteger(input.categoryId)',
    'pet id must be a safe integer',
    'pet name must be a string',
    'pet categoryId must be a safe integer',
    'c.bytes + petBytes(json)',
    'bytes > budget',
  ].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'append',
      code,
      kind: 'unreachable',
      reason: "the store's own guards (the HTTP paths check the NewPet before) and its budget, which no run fills",
    }),
  ),
  ...['at === c.ids.length', 'n === c.byStatus[s]!.length'].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'append',
      code,
      replacement: 'true',
      kind: 'fast path',
      reason: 'the columns grown at every add: the same content, more copying',
    }),
  ),
  ...['c.ids.slice(0, c.count)', 'c.jsons.slice(0, c.count)', 'positions.slice(0, c.statusCounts[s])'].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'copyOf',
      code,
      kind: 'unreachable',
      reason:
        'the live columns sharing arrays with the seeded ones differ only after a reset (the control API), which the run does not make',
    }),
  ),
  // Seeding: the run's mock seeds its 190 pets when opened. The mutants that leave it empty make a server that starts
  // with no animals, which the interface leaves open (it says nothing of what a store holds before a run's creates).
  ...[
    'initial !== undefined',
    '{ load(columnsOf(pets, budget)); replaced = true; }',
    '{ replaced = false; load(copyOf(seeded)); }',
    'seeded = columnsOf(pets, budget); if (!keepState) load(copyOf(seeded));',
    '!keepState',
    'for (const memo of listings) memo.clear(); c = columns;',
    'c.count === 0',
    'if (opened) return c.count;',
    'opened',
    'reseed(loaded, replaced); return c.count;',
  ].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      code,
      kind: 'open choice',
      reason:
        "which animals the store holds before the run creates any (the seeded 190, none, or seeded twice the same): the interface says nothing of a store's starting content, and every answer stays consistent with what was created; a reset or replacement is the control API",
    }),
  ),
  ...['false', 'true'].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      mutator: 'BooleanLiteral',
      code,
      kind: 'open choice',
      reason:
        'whether seeding keeps replaced pets or seeds again: only a replacement (the control API) or a second open (none in a run) tells',
    }),
  ),
  ...["'memory'"].map(
    (code): Equivalent => ({ file: STORE, code, kind: 'message', reason: "the store's name in messages" }),
  ),
  ...['return c.count;', 'return nextId;', 'return c.bytes;'].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      mutator: 'BlockStatement',
      code,
      kind: 'unreachable',
      reason:
        "the store's size, next id and bytes: read by the control API and the mock's own report, not by the three operations",
    }),
  ),
  ...[
    'c.count - 1',
    'const at = position(c, id); return at < 0 ? undefined : new StoredPet',
    '(limit, status) => listing(limit, status).json',
    'c.jsons.slice(0, c.count)',
    "','",
    '{ length }',
    '(_, i) => new StoredPet',
    '(json) => Object.freeze(JSON.parse(json) as Pet)',
    '!Number.isSafeInteger(id)',
  ].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      code,
      kind: 'unreachable',
      reason:
        "the store's own API (ids exhausted, get, list, listJson, all, allJson): the operations read getJson and listing",
    }),
  ),
  // get's `at < 0` (getJson has the same code: there `true` and `>= 0` fail getPet.existing, `<= 0` getPet.listed).
  ...['true', 'at >= 0', 'at <= 0'].map(
    (replacement): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      code: 'at < 0',
      replacement,
      kind: 'unreachable',
      reason: "get is the store's own API: getPet reads getJson",
    }),
  ),
  {
    file: STORE,
    function: 'createPetStore',
    code: 'at < 0',
    replacement: 'false',
    kind: 'fast path',
    reason: 'getJson reading position -1 finds undefined all the same',
  },
  ...['kept === undefined', 'memo.size >= MAX_LISTINGS'].map(
    (code): Equivalent => ({
      file: STORE,
      function: 'createPetStore',
      code,
      kind: 'fast path',
      reason:
        'the listing memo: computed again, cleared more or less often, or kept (at most 101 counts per filter): the same listings',
    }),
  ),
  {
    file: STORE,
    function: 'position',
    code: 'found < id',
    replacement: 'found <= id',
    kind: 'fast path',
    reason: 'found === id has returned on the line before',
  },
  {
    file: STORE,
    function: 'listingOf',
    code: 'new Array<string>(length)',
    kind: 'fast path',
    reason: 'an array grown as it is filled: the same items',
  },
  {
    file: STORE,
    function: 'wholeLimit',
    code: 'limit >= 1',
    kind: 'unreachable',
    reason: 'the HTTP paths refuse a limit below 1 before the store',
  },
  // A listing's bytes, which only the node adapter reads: without them (or with a plain Uint8Array), it encodes or
  // wraps the listing text itself, the same bytes.
  ...pairs(
    [
      ['this.#bytes ??= encodeUtf8(this.json)', 'this.#bytes &&= encodeUtf8(this.json)'],
      ['{ return (this.#bytes ??= encodeUtf8(this.json)); }', '{}'],
      ['Buffer !== undefined', 'true'],
      ['Buffer !== undefined', 'false'],
      ['Buffer !== undefined', 'Buffer === undefined'],
      ["(text) => Buffer.from(text, 'utf8')", '() => undefined'],
    ],
    {
      file: STORE,
      kind: 'fast path',
      reason: 'without the kept bytes, the adapters encode the listing text themselves',
    },
  ),
  {
    file: STORE,
    mutator: 'StringLiteral',
    code: "'utf8'",
    replacement: '""',
    kind: 'unreachable',
    reason: 'an empty encoding name is UTF-8 to Buffer.from: the same bytes',
  },
  {
    file: STORE,
    code: '(text) => utf8.encode(text)',
    replacement: '() => undefined',
    kind: 'unreachable',
    reason: 'the encoder for a runtime without a Buffer (a browser, Deno): the suite runs the mock in Node',
  },
  // server.ts: the node adapter's hardening (body limit, timeouts, unparsable HTTP, Expect, the Host check), its log
  // and chaos faults. The suite sends well-formed requests of ordinary size over 127.0.0.1 to a mock with no log and
  // no chaos; the interface leaves request size limits "not shown" and says nothing of timeouts or broken HTTP; the
  // mock's own tests (mock/node/server.test.ts, test/reliability/) hold these, not the conformance suite.
  /** The adapter's defences against clients the contract does not describe. */
  ...['answerClientError', 'discardBody', 'readBody'].map(
    (fn): Equivalent => ({
      file: SERVER,
      function: fn,
      code: '',
      kind: 'open choice',
      reason:
        'how the adapter meets a body over its limit, a body on a GET, unparsable HTTP or a timeout: request size limits are "not shown" in the interface (the table\'s row on bodies over 1 MiB takes 400 or 413), and the suite sends none of the rest',
    }),
  ),
  ...[
    'Request Header Fields Too Large',
    'request headers are too large',
    'Request Timeout',
    'not received in time',
    'Bad Request',
    'not valid HTTP/1.1',
  ].map(
    (code): Equivalent => ({
      file: SERVER,
      code,
      kind: 'open choice',
      reason:
        'the answers to unparsable HTTP and timeouts, which the suite never sends and the interface does not describe',
    }),
  ),
  {
    file: SERVER,
    function: 'carryOut',
    code: '',
    kind: 'unreachable',
    reason:
      'faults (reset, close, truncated, hang) come only from chaos and forced answers, which the run does not set',
  },
  ...['fetchSafely', 'internalError'].map(
    (fn): Equivalent => ({
      file: SERVER,
      function: fn,
      code: fn === 'fetchSafely' ? 'return internalError();' : '',
      kind: 'unreachable',
      reason: "the 500 for a mock that throws: no request of the run makes the mock's fetch throw",
    }),
  ),
  {
    file: SERVER,
    function: 'toApiRequest',
    code: '',
    kind: 'unreachable',
    reason: 'node:http always gives a server request its method and URL: the defaults are never read',
  },
  {
    file: SERVER,
    function: 'send',
    code: 'response.body.length > 0',
    kind: 'fast path',
    reason:
      'framing: a body sent with Content-Length or chunked (and an empty one with Content-Length: 0 or none) is the same message',
  },
  ...['closeAfter', "'close'", "'finish'", '() => res.socket?.destroySoon()', 'res.socket?.destroySoon'].map(
    (code): Equivalent => ({
      file: SERVER,
      function: 'send',
      code,
      kind: 'open choice',
      reason:
        'whether the connection closes after an over-limit body: the suite sends none, and a server may close or keep it',
    }),
  ),
  {
    file: SERVER,
    function: 'send',
    code: 'res.destroyed ||',
    kind: 'unreachable',
    reason: 'an answer to a request already answered 408 or gone: the suite waits for every answer',
  },
  // createHttpServer: the Host check first (its block holds the refusal's `?? ''`), then the flags and fallbacks
  // that several lines share, then the log, the answers given later and the body's reading.
  ...['hostAllowed !== undefined', 'Nothing of it is read or handled', 'req.headers.host ??'].map(
    (code): Equivalent => ({
      file: SERVER,
      function: 'createHttpServer',
      code,
      kind: 'open choice',
      reason:
        "the Host check against DNS rebinding: the table's Browsers row leaves it unchecked, and the suite's Host is always the mock's own",
    }),
  ),
  {
    file: SERVER,
    function: 'createHttpServer',
    mutator: 'StringLiteral',
    code: "''",
    kind: 'unreachable',
    reason:
      "the empty fallbacks of the log line's method and path (the log is no answer, and the run logs nothing) and of a missing Host in its refusal (the suite always sends the mock's own)",
  },
  {
    file: SERVER,
    function: 'createHttpServer',
    mutator: 'BooleanLiteral',
    code: 'true',
    kind: 'unreachable',
    reason:
      'a flag turned false: the abandoned mark (a client that gives up), the close after a Host refusal (the suite sends the mock its own Host) or the over-limit mark (a body over 1 MiB): the suite makes none of them',
  },
  ...[
    '[]',
    'log',
    "req.method ?? ''",
    "req.url ?? ''",
    "response.fault && response.fault !== 'truncated'",
    "response.fault !== 'truncated'",
    "'truncated'",
    '{ fault: response.fault }',
    'performance.now() - started',
  ].map(
    (code): Equivalent => ({
      file: SERVER,
      function: 'createHttpServer',
      code,
      kind: 'unreachable',
      reason:
        'the log line of each answer (and the secrets it hides): no answer over HTTP shows it, and the run logs nothing',
    }),
  ),
  {
    file: SERVER,
    function: 'createHttpServer',
    code: 'response.fault',
    replacement: 'false',
    kind: 'unreachable',
    reason: 'faults come only from chaos and forced answers, which the run does not set',
  },
  ...[
    'answer instanceof Promise',
    "'close'",
    '!res.writableFinished',
    '(response) => deliver(req, res, response, closeAfter, started)',
  ].map(
    (code): Equivalent => ({
      file: SERVER,
      function: 'createHttpServer',
      code,
      kind: 'unreachable',
      reason:
        "an answer the mock gives later (latency, a delay, a database store) and a client that gives up: the run's memory mock answers at once, and the suite waits",
    }),
  ),
  ...[
    "req.method !== 'POST' && req.method !== 'PUT'",
    "req.method !== 'PUT'",
    "'PUT'",
    'Number(declared) > bodyLimit',
    "'content-length'",
    '!overLimit',
    'declared !== undefined',
    "'transfer-encoding'",
    'tooLarge',
    "'request'",
    "'clientError'",
    "'checkContinue'",
    '{ headersTimeout: headersMs, requestTimeout: requestMs, connectionsCheckingInterval: checkEvery }',
    'headersMs / 4',
  ].map(
    (code): Equivalent => ({
      file: SERVER,
      function: 'createHttpServer',
      code,
      kind: 'open choice',
      reason:
        'whether and how a body is read for each method, a body over the limit (the table\'s row: 400 or 413), Expect: 100-continue, unparsable HTTP and the timeouts: request size limits are "not shown" in the interface, the suite sends GET and POST of ordinary size, and the rest it never sends',
    }),
  ),
];
