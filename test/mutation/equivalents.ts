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
const EXACT = 'mock/core/exact-numbers.ts';
const LAYERS = 'mock/core/layers.ts';

/** What only the mock's own layers read: the interface defines none of them, and the suite's mock asks for none. */
const OWN_LAYERS =
  "changes only the mock's own layers (CORS, control, journal, coverage, Pact, and latency, Prefer, scenarios, chaos and the rate limit, which are off unless asked): the interface defines none of them and the architecture notes' table checks none, so a request of the interface gets the same answer";

/** The architecture notes' row on a wrong method: the suite sends none, and may only advise on one. */
const WRONG_METHOD =
  "a method the route does not serve (405, Allow, OPTIONS, HEAD): the interface defines GET and POST only, and the architecture notes' table leaves an unknown route or wrong method unchecked";

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
    mutator: 'MethodExpression',
    code: 'authorization?.startsWith(BEARER_PREFIX)',
    kind: 'fast path',
    reason: 'the pattern after it reads `Bearer <key>` the same way',
  },
  ...['text.length <= start', 'code < 0x21 || code > 0x7e', 'code < 0x21', 'code > 0x7e'].map(
    (code): Equivalent => ({
      file: AUTH,
      function: 'isVisibleAscii',
      code,
      kind: 'open choice',
      reason:
        'isVisibleAscii only picks the fast path: a mutant changes the answer only for a token after two spaces or with a control character, where the contract gives the form `Bearer <API_KEY>` (one space) and the suite requires nothing',
    }),
  ),
  {
    file: AUTH,
    function: 'isVisibleAscii',
    mutator: 'BooleanLiteral',
    code: 'false',
    replacement: 'true',
    kind: 'open choice',
    reason:
      'the fast path for an empty token or one with a space or control character: `Bearer ` alone gets 401 either way (the wrong-key message), and only a token after two spaces (`Bearer  KEY`) changes, where the contract gives the form `Bearer <API_KEY>` and the suite requires nothing',
  },
  {
    file: AUTH,
    mutator: 'Regex',
    code: '/^bearer +(\\S.*)$/i',
    replacement: '/^bearer (\\S.*)$/i',
    kind: 'open choice',
    reason:
      'one space only after the scheme: `Bearer  KEY` (two spaces) refused, where the contract gives the form `Bearer <API_KEY>` and the suite requires nothing',
  },
  // The loop never run (i >= text.length at once), run backwards (it meets the space of `Bearer ` and answers
  // false), or never reaching its end (always false): each only picks the fast path or the pattern, the same answer.
  ...[
    ['i < text.length', 'i >= text.length'],
    ['i++', 'i--'],
    ['true', 'false'],
  ].map(
    ([code, replacement]): Equivalent => ({
      file: AUTH,
      function: 'isVisibleAscii',
      code: code!,
      replacement,
      kind: 'fast path',
      reason: 'only picks the fast path or the pattern after it, which read `Bearer <key>` the same way',
    }),
  ),
  // The loop never run, or run one past the end (charCodeAt gives NaN there, which is neither bound): every token
  // takes the fast path, whose exact compare refuses whatever is not the key, as the pattern would.
  ...['false', 'i <= text.length'].map(
    (replacement): Equivalent => ({
      file: AUTH,
      function: 'isVisibleAscii',
      code: 'i < text.length',
      replacement,
      kind: 'fast path',
      reason: 'the fast path for every token: its exact compare refuses anything that is not the key',
    }),
  ),
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
  // layers.ts: the pipeline around the handler; the handler routes and answers every request of the interface itself.
  ...['forcedBy', 'observingLayer', 'thenAnswer', 'sleep', 'headerValue', 'isShaped', 'chainOf'].map(
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
  ...[
    'query === queries.last',
    "query !== ''",
    '{ query = queries.all.get(query) ?? queries.all.keep(query, query); queries.last = query; }',
  ].map(
    (code): Equivalent => ({
      file: LAYERS,
      function: 'createContext',
      code,
      kind: 'fast path',
      reason: 'the memo of query texts: a query passed on as the string first seen, or as sent, is the same text',
    }),
  ),
  ...['contextMaker', 'createContext'].map(
    (fn): Equivalent => ({
      file: LAYERS,
      function: fn,
      mutator: 'StringLiteral',
      code: "''",
      kind: 'fast path',
      reason:
        'the memo of query texts: the first `last`, and whether an empty query is kept, only decide whether the map is looked in',
    }),
  ),
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
    '{ const target = splitTarget(originForm(request.url)); return chain(contextOf(request, target.path, target.query)); }',
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
    code: "url.startsWith('/')",
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
  {
    file: HANDLER,
    code: 'removed?.has',
    kind: 'unreachable',
    reason: 'createMock always passes the set of operations past their sunset, empty before it',
  },
  ...[
    '(op: OperationInfo) => removed?.has(op.operationId) === true',
    'removed?.has(op.operationId) === true',
    '[...route.operations.values()].some((op) => !gone(op))',
    'route && serves(route)',
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
    code: 'known === undefined',
    kind: 'fast path',
    reason: 'the memo of served templates: deciding again gives the same answer',
  },
  ...[
    "request.method === 'OPTIONS'",
    "'OPTIONS'",
    "request.method === 'HEAD'",
    "'HEAD'",
    "'GET'",
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
];
