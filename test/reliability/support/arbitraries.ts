/**
 * fast-check arbitraries for hostile Petstore requests: every method, odd
 * paths and queries, keys right and wrong, and bodies of any shape (JSON of
 * any kind, invalid UTF-8, deep nesting, huge and fractional numbers,
 * `__proto__` and `constructor` keys). `wire: true` keeps everything sendable
 * as valid HTTP/1.1 (visible ASCII targets, no control characters in headers).
 */
import fc from 'fast-check';
import type { SentRequest } from './oracle.ts';

/** One generated request, labelled with what the generator knows about it (the oracle's view, plus how to send it). */
export interface GeneratedRequest extends SentRequest {
  /** Extra headers (lower-case names), none of them hop-by-hop. */
  extraHeaders: [string, string][];
  /** Only over a socket: send the body chunked, split at these fractions. */
  chunks?: number[];
  /** Only over a socket: send `Expect: 100-continue`. */
  expectContinue?: boolean;
}

/** Options for {@link requestArbitrary}. */
export interface RequestArbitraryOptions {
  apiKeys: readonly string[];
  /** True when the request goes over a real socket. */
  wire: boolean;
}

const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Any string: full unicode, control characters, lone surrogates. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), lone), maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', 'ñandú', '🐕‍🦺', '\u202e', 'a\r\nb', '__proto__', 'constructor', 'toString'),
);

/** Percent-encodes whatever is not visible ASCII, so the text fits a request target. */
function wireSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c > 0x20 && c < 0x7f) out += ch;
    else out += [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

const number = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1e3',
    '1E400',
    '-1e-400',
    '9007199254740993',
    '9223372036854775808',
    '0.1',
    '1.5',
    '123456789012345678901234567890',
  ),
);

const idSegment = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -2, max: 400 }).map(String) },
  { weight: 2, arbitrary: number },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '00001',
      '+1',
      ' 1',
      '0x10',
      '1/',
      'abc',
      '%31',
      '%',
      '%zz',
      '-',
      'null',
      '١',
      '9223372036854775807',
      '-9223372036854775808',
      '18446744073709551616',
    ),
  },
  { weight: 1, arbitrary: anyString },
);

function pathArbitrary(wire: boolean): fc.Arbitrary<string> {
  const raw = fc.oneof(
    { weight: 12, arbitrary: fc.constant('/v1/pets') },
    { weight: 8, arbitrary: idSegment.map((s) => `/v1/pets/${s}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('/__control/pets', '/__control/health', '/__control/reset', '/__control/nope'),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/',
        '',
        '*',
        '/v1',
        '/v1/',
        '/v1/pets/',
        '//v1/pets',
        '/V1/pets',
        '/v1/PETS',
        '/v1/pets/1/2',
        '/v1/%70ets',
        '/v1/pets%2F1',
        '/v1/pets/..',
        '/v1/pets/./1',
        '/v1/pets;x=1',
        '/v1/pets#frag',
        'http://127.0.0.1/v1/pets',
        '/v2/pets',
        '/v1/pets/%E0%A4%A',
        '/%00',
      ),
    },
    { weight: 1, arbitrary: anyString.map((s) => `/${s}`) },
  );
  return wire ? raw.map(wireSafe).filter((p) => p.length > 0) : raw;
}

const limitValue = fc.oneof(
  fc.integer({ min: -5, max: 110 }).map(String),
  number,
  fc.constantFrom('', ' 5', '5 ', '05', '+5', '5.0', '1e1', '0x10', 'NaN', 'Infinity', '٣', 'true', '[1]'),
  anyString,
);
const statusValue = fc.oneof(
  fc.constantFrom('available', 'pending', 'sold', 'Available', 'SOLD', '', 'available ', 'unknown'),
  anyString,
);

function queryArbitrary(wire: boolean): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('limit', 'status') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'x', 'limit[]', 'Limit', '') },
    { weight: 1, arbitrary: anyString },
  );
  const pair = name.chain((n) =>
    (n === 'limit' ? limitValue : n === 'status' ? statusValue : anyString).map((v) => [n, v] as const),
  );
  const built = fc
    .tuple(fc.array(pair, { maxLength: 4 }), fc.boolean())
    .map(([pairs, viaSearchParams]) =>
      viaSearchParams
        ? new URLSearchParams(
            pairs.map(([k, v]): [string, string] => [k, v.replace(/[\ud800-\udfff]/g, '?')]),
          ).toString()
        : pairs.map(([k, v]) => `${k}=${v}`).join('&'),
    );
  const junk = fc.oneof(
    fc.constantFrom('', '&&', '=', '==&=', 'limit', 'limit=%zz', 'status=%E0%A4%A', '%', ';limit=5', 'limit=5#x'),
    anyString,
  );
  return fc.oneof({ weight: 6, arbitrary: built }, { weight: 1, arbitrary: junk }).map((q) => (wire ? wireSafe(q) : q));
}

interface Auth {
  authorization?: string;
  authValid: boolean;
}

function authArbitrary(apiKeys: readonly string[], wire: boolean): fc.Arbitrary<Auth> {
  const key = fc.constantFrom(...apiKeys);
  const valid = fc
    .tuple(key, fc.constantFrom('Bearer ', 'bearer ', 'BEARER ', 'Bearer   ', 'bEaReR '))
    .map(([k, scheme]) => ({ authorization: `${scheme}${k}`, authValid: true }));
  const invalid = fc.oneof<fc.Arbitrary<Auth>[]>(
    fc.constant({ authValid: false }),
    key
      .chain((k) =>
        fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          `Bearer ${k}x`,
          `Bearer ${k.slice(0, -1)}`,
          `Basic ${Buffer.from(`${k}:`).toString('base64')}`,
          k,
          `Token ${k}`,
          `Bearer\t${k}`,
          `Bearer ${k.toUpperCase()}`,
          `Bearer "${k}"`,
          `Bearer ${k},${k}`,
          'Bearer wrong-key',
          `Bearer ${k} ${k}`,
        ),
      )
      .map((authorization) => ({ authorization, authValid: false })),
    anyString.map((s) => ({ authorization: s, authValid: false })),
  );
  const arb: fc.Arbitrary<Auth> = fc.oneof({ weight: 5, arbitrary: valid }, { weight: 2, arbitrary: invalid });
  return wire
    ? arb.map((a) => (a.authorization === undefined ? a : { ...a, authorization: wireHeaderValue(a.authorization) }))
    : arb;
}

/** Makes a header value node:http accepts: tab, visible ASCII and obs-text (0x80-0xFF), no leading or trailing space. */
function wireHeaderValue(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?').trim();
}

const contentTypeArbitrary = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/merge-patch+json',
        'application/json;charset=UTF-8',
      )
      .map((value) => ({ value, json: true as boolean | undefined })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonp',
        'text/json',
        'application/xml',
        'json',
        '',
      )
      .map((value) => ({ value, json: false as boolean | undefined })),
  },
  { weight: 1, arbitrary: fc.constant({ value: undefined as string | undefined, json: false as boolean | undefined }) },
  {
    weight: 1,
    arbitrary: anyString.map((value) => ({
      value: value as string | undefined,
      json: undefined as boolean | undefined,
    })),
  },
);

/** JSON text of an object with these entries, keys written literally (so `__proto__` stays a plain key). */
function objectText(entries: [string, string][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

const deep = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('array', 'object', 'unbalanced', 'inPet'))
  .map(([depth, shape]) => {
    if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
    if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    if (shape === 'unbalanced') return '['.repeat(depth);
    return `{"name":"deep","categoryId":1,"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  });

const scalarJson = fc.oneof(
  anyString.map((s) => JSON.stringify(s)),
  number,
  fc.constantFrom('null', 'true', 'false', '[]', '{}'),
);

/** NewPet-like objects: mostly valid, often with one field wrong, extra or hostile keys. */
const newPetText = fc
  .record({
    name: fc.oneof(
      { weight: 8, arbitrary: anyString.map((s) => JSON.stringify(s)) },
      { weight: 1, arbitrary: scalarJson },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    categoryId: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: -1000, max: 1_000_000 }).map(String) },
      { weight: 2, arbitrary: fc.maxSafeInteger().map(String) },
      { weight: 2, arbitrary: number },
      { weight: 1, arbitrary: scalarJson },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    status: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 4, arbitrary: fc.constantFrom('"available"', '"pending"', '"sold"') },
      {
        weight: 1,
        arbitrary: fc.oneof(
          statusValue.map((s) => JSON.stringify(s)),
          scalarJson,
        ),
      },
    ),
    extra: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'prototype',
            'id',
            'toString',
            'hasOwnProperty',
            'name',
            'categoryId',
          ),
          anyString,
        ),
        fc.oneof(
          scalarJson,
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc.constant('{"name":"evil","categoryId":1,"polluted":true}'),
        ),
      ),
      { maxLength: 3 },
    ),
    extraFirst: fc.boolean(),
  })
  .map(({ name, categoryId, status, extra, extraFirst }) => {
    const fields: [string, string][] = [];
    if (name !== undefined) fields.push(['name', name]);
    if (categoryId !== undefined) fields.push(['categoryId', categoryId]);
    if (status !== undefined) fields.push(['status', status]);
    return objectText(extraFirst ? [...extra, ...fields] : [...fields, ...extra]);
  });

const utf8Encoder = new TextEncoder();

function bodyArbitrary(wire: boolean): fc.Arbitrary<Uint8Array | string | undefined> {
  const text = fc.oneof(
    { weight: 12, arbitrary: newPetText },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: anyString },
    { weight: 1, arbitrary: newPetText.map((t) => `\ufeff${t}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        'null',
        '{"name":"x","categoryId":1',
        '{"name":"x","categoryId":1}garbage',
        '{"name":"x" "categoryId":1}',
        "{'name':'x','categoryId':1}",
      ),
    },
  );
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    // Valid JSON around bytes that are not UTF-8.
    fc
      .uint8Array({ minLength: 1, maxLength: 8 })
      .map((b) =>
        Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from(b.map((x) => x | 0x80)),
          Buffer.from('","categoryId":7}'),
        ]),
      ),
  );
  const encoded = text.map((t): Uint8Array | string => utf8Encoder.encode(t));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: wire ? 0 : 8, arbitrary: text },
    { weight: 8, arbitrary: encoded },
    { weight: 2, arbitrary: bytes },
  );
}

const method = (wire: boolean) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant('POST') },
    { weight: 6, arbitrary: fc.constant('GET') },
    { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND') },
    { weight: wire ? 0 : 1, arbitrary: fc.constantFrom('get', 'post', '', 'FOO', '__proto__') },
  );

const extraHeaderName = fc.oneof(
  fc.constantFrom(
    'accept',
    'origin',
    'access-control-request-method',
    'x-forwarded-for',
    'cookie',
    '__proto__',
    'constructor',
    'x-api-key',
    'accept-encoding',
    'content-encoding',
  ),
  fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
);

/**
 * Arbitrary Petstore requests, as described in the file comment. One in four
 * is a create with a good key and a JSON media type, so that enough pets are
 * created for the state checks to bite.
 */
export function requestArbitrary(options: RequestArbitraryOptions): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(
    { weight: 3, arbitrary: anyRequest(options, false) },
    { weight: 1, arbitrary: anyRequest(options, true) },
  );
}

function anyRequest({ apiKeys, wire }: RequestArbitraryOptions, create: boolean): fc.Arbitrary<GeneratedRequest> {
  const extraValue = wire ? anyString.map(wireHeaderValue) : anyString;
  const contentType = create ? contentTypeArbitrary.filter((c) => c.json === true) : contentTypeArbitrary;
  const validAuth = fc
    .constantFrom(...apiKeys)
    .map((k) => ({ authorization: `Bearer ${k}` as string | undefined, authValid: true }));
  return fc
    .record({
      method: create ? fc.constant('POST') : method(wire),
      path: create ? fc.constant('/v1/pets') : pathArbitrary(wire),
      query: fc.option(queryArbitrary(wire), { freq: 2 }),
      auth: create ? validAuth : authArbitrary(apiKeys, wire),
      contentType: wire
        ? contentType.map((c) => (c.value === undefined ? c : { ...c, value: wireHeaderValue(c.value) }))
        : contentType,
      extraHeaders: fc.array(fc.tuple(extraHeaderName, extraValue), { maxLength: 3 }),
      body: create
        ? newPetText.map((t): Uint8Array | string => (wire ? utf8Encoder.encode(t) : t))
        : bodyArbitrary(wire),
      bodyTooLarge: wire ? fc.constant(false) : fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      chunks: wire
        ? fc.option(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }))
        : fc.constant(null),
      expectContinue: wire ? fc.boolean() : fc.constant(false),
    })
    .map(({ method, path, query, auth, contentType, extraHeaders, body, bodyTooLarge, chunks, expectContinue }) => {
      const request: GeneratedRequest = {
        method,
        url: query === null ? path : `${path}?${query}`,
        authValid: auth.authValid,
        extraHeaders,
      };
      if (auth.authorization !== undefined) request.authorization = auth.authorization;
      if (contentType.value !== undefined) request.contentType = contentType.value;
      if (contentType.json !== undefined) request.contentTypeJson = contentType.json;
      if (body !== undefined) request.body = body;
      if (bodyTooLarge && method === 'POST') request.bodyTooLarge = true;
      if (chunks !== null) request.chunks = chunks;
      if (expectContinue && body !== undefined && body.length > 0) request.expectContinue = true;
      return request;
    });
}
