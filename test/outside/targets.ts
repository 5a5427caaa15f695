/**
 * The servers nobody on this project wrote, and how the suite's verdict on
 * each was reviewed: json-server, an Express app with express.json() before
 * its auth, Prism mocking the OpenAPI Initiative's petstore example, apps in
 * Fastify (its default error bodies, then an error handler answering Error),
 * NestJS and Hono written from the interface document as their guides teach,
 * and our mock with chaos and with a rate limit. {@link runTarget} runs the
 * CLI on one as a user runs it (exit code and JSON report).
 *
 * Every cause each run reports was read against the contract and is listed
 * here with why it is true; the script fails on a cause nobody reviewed (a
 * possible false finding), on a reviewed one that went missing (a lost true
 * finding), and on an exit code other than the one the run must end with.
 *
 * A cause found not to be a finding of its own is fixed in the judge, never
 * listed here to make the script pass.
 *
 * Run by test/outside/run.ts (npm run outside) and, for the quick ones, outside.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { styleText } from 'node:util';
import type { Report } from '../../conformance/index.ts';
import { startMockServer } from '../../mock/node/index.ts';
import { startPrism } from '../../prism/index.ts';
import { ROOT, runProcess, tsxEntry } from '../support/processes.ts';
import { startExpressApp } from './express-app.ts';
import { startFastifyApp } from './fastify-app.ts';
import { startHonoApp } from './hono-app.ts';
import { startJsonServer } from './json-server.ts';
import { startNestApp } from './nest-app.ts';
import { startJavaApp, startMojoliciousApp, startPythonApp } from './stack-apps.ts';

interface Running {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** A cause the run must report, and why it is true of that server. */
interface Reviewed {
  statement: RegExp;
  why: string;
}

export interface Target {
  /** What `npm run outside -- ID` selects. */
  id: string;
  name: string;
  start(): Promise<Running>;
  /** CLI options besides --base-url, --api-key and --reporter. */
  args: string[];
  exit: number;
  causes: Reviewed[];
  /** Further facts of the report the run must show. */
  expect?(report: Report): string[];
}

const SPEC = join(ROOT, 'spec/petstore.openapi.yaml');
const OAI_EXAMPLE = join(ROOT, 'test/outside/oai-petstore.yaml');

const noAuth = (request: string, status = 200): Reviewed => ({
  statement: new RegExp(`^${request} answers ${status} where the contract requires 401$`),
  why: 'it has no authentication: a missing or wrong key gets the answer a valid one gets',
});

/** Of a server without a key check: one cause on every operation (issue 34 §4). */
const noAuthAnywhere = (base: string): Reviewed => ({
  statement: new RegExp(
    `^GET ${base}/pets, POST ${base}/pets and GET ${base}/pets/\\{petId\\} answer 2xx where the contract requires 401$`,
  ),
  why: 'it has no authentication: a missing or wrong key gets the answer a valid one gets, on every operation',
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Invalid bodies answered 201: one cause per rule broken (issue 45 §13), each reviewed on its own, so a rule the
 * server stops letting through is a reviewed cause gone missing. `rule` is the fixed table's `breaks`.
 */
const accepts = (base: string, why: Record<string, string>): Reviewed[] =>
  Object.entries(why).map(([rule, because]) => ({
    statement: new RegExp(
      `^POST ${escaped(base)}/pets answers 201 where the contract requires 400 when ${escaped(rule)}$`,
    ),
    why: because,
  }));

/** The object a schema error names, as the statement now shows it: `(got an object)` after the rule. */
const GOT_OBJECT = '(?: \\(got an object\\))?';

/** Decoding a body that is not UTF-8 with U+FFFD in place of the bytes: the replacement is stored as the name. */
const NOT_UTF8 = 'the body is not UTF-8';

/**
 * An existing id followed by a newline (1%0A) or written as 1e0: Number() and ajv's coercion (x == +x) read both as 1
 * and answer that animal; the contract's petId is an int64, which neither is.
 */
const lenientId = (how: string): Reviewed => ({
  statement:
    /^GET \/v1\/pets\/\{petId\} answers 200 where the suite accepts only 400 or 404 \(the contract lists 200, 401, 404 for getPet; 400 is the suite's reading of Endpoints §3 Get an animal \(deprecated\)\)$/u,
  why: `${how}: GET /v1/pets/1%0A and /v1/pets/1e0 answer animal 1 (getPet.malformed.trailing); 1abc, 1%00 and 1_0 are refused`,
});

// Causes the framework targets share.
const fastifyCoercion = (base: string): Reviewed[] => {
  const coerced = (what: string) =>
    `Fastify’s ajv runs with coerceTypes "array" on bodies too: ${what} is coerced to the schema’s type and stored`;
  return accepts(base, {
    'name is a number': coerced('name 42 (to "42")'),
    'name is a boolean': coerced('name true or false (to "true", "false")'),
    'name is null': coerced('name null (to "")'),
    'name is an array': coerced('a one-item array ["x"] (to "x")'),
    'categoryId is a string': coerced('categoryId "1" (to 1)'),
    'categoryId is a boolean': coerced('categoryId true or false (to 1, 0)'),
    'categoryId is null': coerced('categoryId null (to 0)'),
    'categoryId is an array': coerced('categoryId [1] (to 1)'),
    'status is an array': coerced('status ["available"] (to "available")'),
    'categoryId is beyond int64':
      'JSON.parse reads 9223372036854775808 as a double with no fraction, and ajv’s type integer (no format in the route schema) takes it',
    [NOT_UTF8]:
      'its JSON parser decodes a body that is not UTF-8 with U+FFFD in place of the bytes, so the body validates and the replacement is stored',
  });
};
const roundsBeyond2pow53 = (how: string): Reviewed => ({
  statement: /^`categoryId` beyond 2\^53 is not kept as sent/,
  why: `${how}: 9007199254740993 is stored as 9007199254740992`,
});
const readsInexact = (how: string): Reviewed => ({
  statement: /^createPet: exact: categoryId 4503599627370496\.5 was stored changed/,
  why: `${how}: 4503599627370496.5 is stored as 4503599627370496 and 1e-400 as 0`,
});
/**
 * A listing that holds one id twice because the create gave an animal an id it already held is that create's cause,
 * not a finding of its own (issue 34 §6): the report must say so.
 */
const duplicateIsConsequence = (r: Report): string[] => {
  const unique = r.cases.find((c) => c.id === 'generated.listPets.unique');
  return unique?.outcome !== 'failed' ||
    /listed twice because the service gave a created animal an id/.test(unique.consequence ?? '')
    ? []
    : ['generated.listPets.unique fails as a cause of its own, not as the new-id cause’s consequence'];
};

export const TARGETS: Target[] = [
  {
    id: 'json-server',
    name: 'json-server 0.17.4 started as its README says (json-server db.json: a pets collection, the API at the root)',
    start: async () => ({ ...(await startJsonServer()), apiKey: 'any-key' }),
    args: ['--generate', '50'],
    exit: 1,
    causes: [
      ...accepts(
        '',
        Object.fromEntries(
          [
            'name is missing',
            'categoryId is missing',
            'member names are in another case (so the required ones are missing)',
            ...['name', 'categoryId', 'status'].flatMap((f) =>
              ['a number', 'null', 'an object', 'a boolean', 'an array', 'a string'].map((k) => `${f} is ${k}`),
            ),
            'categoryId is not an integer',
            'categoryId is beyond int64',
            'status is outside the enumeration',
            'the body is not a JSON object',
            'the body is empty',
          ]
            .filter((rule) => !['name is a string', 'status is a string', 'categoryId is a number'].includes(rule))
            .map((rule) => [
              rule,
              'it validates nothing: any JSON it parses is stored as sent (a posted array too), and an empty body as {} with an id',
            ]),
        ),
      ),
      ...accepts('', {
        [NOT_UTF8]:
          'body-parser decodes a body that is not UTF-8 with U+FFFD in place of the bytes, and it stores that',
      }),
      {
        statement: new RegExp(
          `^\`Pet\` must have required property 'name' \\(name\\)${GOT_OBJECT}, in createPet, listPets and getPet$`,
        ),
        why: 'a body that is not typed JSON is answered 201 but body-parser skips it: the animal kept is {id} alone, so the 201 to a body with no Content-Type (createPet.noContentType) is no Pet, and neither is reading back (getPet.readBack) or listing that one or the text/plain one (createPet.invalid.nonJsonContentType, which it may accept: advice); the animals of bodies it had to refuse are those creates’ causes',
      },
      {
        statement: /^GET \/pets\/\S*%[0-9A-F]{2}\S* answers a server error \(500\)$/,
        why: 'its Express 4 router decodes :id with decodeURIComponent, which throws URIError on an escape that is not UTF-8 (%FF, %C3 without its continuation); json-server’s error handler answers that 500 with the stack',
      },
      {
        statement: /^POST \/pets answers a server error \(500\)$/,
        why: 'a body carrying the id of an animal it holds makes it throw (Insert failed, duplicate id)',
      },
      {
        statement: /^answers with the wrong media type: expected application\/json, got "text\/html; charset=utf-8"$/,
        why: 'malformed JSON, or a body of null, a string or a number, gets body-parser’s 400 as an HTML page, not an Error',
      },
      noAuthAnywhere(''),
      {
        statement: new RegExp(`^\`Error\` must have required property 'code' \\(code\\)${GOT_OBJECT}$`),
        why: 'an unknown or malformed id (abc, 1abc, 1e0) gets 404 with the body {}, not an Error (its first missing property is code)',
      },
      {
        statement: /^listPets: item count: \d+ items, at most \d+ allowed$/,
        why: 'limit is not a json-server parameter (it pages with _limit): limit=1 lists every animal',
      },
      {
        statement: /^`categoryId` beyond 2\^53 is not kept as sent/,
        why: 'it parses JSON numbers as doubles: 9007199254740993 is stored as 9007199254740992',
      },
      {
        statement: /^createPet: exact: categoryId 4503599627370496\.5 was stored changed/,
        why: 'the same double parsing: 4503599627370496.5 is stored as 4503599627370496',
      },
      {
        statement:
          /^GET \/pets answers 200 where the suite accepts only 400 or 401 \(the contract lists 200, 401 for listPets; 400 is the suite's reading of Authentication\)$/u,
        why: 'no key check: a wrong key with a bad limit is answered; the line now says the 400 is the suite’s reading, not the contract’s',
      },
    ],
    // The generated listings hold what the invalid creates stored: that is the invalid creates' cause, not a new one,
    // or, once they hold the {id} kept of the text/plain body, the cause that animal is.
    expect: (r) => {
      const listing = r.cases.find((c) => c.id === 'generated.listPets.response');
      const keptEmpty = r.causes?.find((c) => c.statement.startsWith("`Pet` must have required property 'name'"));
      return listing?.outcome !== 'failed' || listing.consequence || keptEmpty?.cases.includes(listing.id)
        ? []
        : [`generated.listPets.response should fail only because of the invalid creates: ${listing.reason}`];
    },
  },
  {
    id: 'express',
    name: 'Express 5 + express-openapi-validator on our spec, express.json() before auth',
    start: () => startExpressApp(SPEC),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      {
        statement: /^`categoryId` beyond 2\^53 is not kept as sent/,
        why: 'express.json() is JSON.parse: 9007199254740993 becomes 9007199254740992 before validation',
      },
      {
        statement: /^createPet: exact: categoryId 4503599627370496\.5 was stored changed/,
        why: 'JSON.parse reads 4503599627370496.5 as the integer 2^52, which the validator then accepts',
      },
      ...accepts('/v1', {
        'categoryId is beyond int64':
          'express.json() reads 9223372036854775808 as a double, and the validator’s int64 format checks only that it is an integer',
        [NOT_UTF8]:
          'express.json() decodes a body that is not UTF-8 with U+FFFD in place of the bytes, so it validates and is stored',
      }),
      lenientId('express-openapi-validator coerces the path parameter to the schema’s integer as ajv does (x == +x)'),
    ],
    expect: (r) => {
      const before = r.cases.find((c) => c.id === 'auth.createPet.beforeValidation');
      return before?.outcome === 'passed'
        ? []
        : [
            `auth.createPet.beforeValidation must pass (400 to a wrong key plus a bad body is allowed), got ${before?.outcome}`,
          ];
    },
  },
  {
    id: 'prism-oai',
    name: 'Prism 5.14.2 mocking the OpenAPI Initiative petstore example',
    start: async () => {
      const prism = await startPrism({ mode: 'mock', spec: OAI_EXAMPLE, startTimeoutMs: 30_000 });
      return { url: prism.url, apiKey: 'any-key', close: () => prism.close() };
    },
    args: [],
    exit: 1,
    causes: [
      {
        statement: new RegExp(`^\`Pet\` must have required property 'categoryId' \\(categoryId\\)${GOT_OBJECT}$`),
        why: 'its Pet is {id, name, tag}: no categoryId, so its listings are not this interface’s Pets',
      },
      {
        statement: /^listPets: filter: \d+ of \d+ items have another status$/,
        why: 'a Prism mock answers its example whatever the query: status=sold lists an animal of another status (shown now that the schema failure no longer hides it, issue 34 §5)',
      },
      {
        statement: /^POST \/pets answers 422 where the contract requires 201$/,
        why: 'its Pet requires an id, so a NewPet without one is refused',
      },
      { ...noAuth('GET /pets'), why: 'the example has no security scheme' },
      {
        statement:
          /^GET \/pets answers 422 where the suite accepts only 200 or 400 \(the contract lists 200, 401 for listPets; 400 is the suite's reading of Limits\)$/u,
        why: 'limit=abc gets 422, a status this interface does not list',
      },
      {
        statement:
          /^GET \/pets answers 200 where the suite accepts only 400 or 401 \(the contract lists 200, 401 for listPets; 400 is the suite's reading of Authentication\)$/u,
        why: 'no key check: a wrong key with a bad listing query is answered',
      },
    ],
    expect: (r) =>
      r.summary.passed === 0 ? [] : [`nothing should pass on another interface, ${r.summary.passed} did`],
  },
  {
    id: 'fastify',
    name: 'Fastify 5, route schemas validated with its defaults, its default error handler',
    start: () => startFastifyApp(),
    args: ['--generate', '100'],
    exit: 1,
    expect: duplicateIsConsequence,
    causes: [
      {
        statement: new RegExp(
          `^\`Error\` must have required property 'status' \\(status\\)${GOT_OBJECT}, in listPets, createPet and getPet$`,
        ),
        why: 'Fastify’s default error handler answers every 400 (FST_ERR_VALIDATION for a bad limit, status, body or /pets/abc; FST_ERR_CTP_INVALID_JSON_BODY, FST_ERR_CTP_EMPTY_JSON_BODY) with {statusCode, code, error, message}: no status, not an Error; one cause on every operation',
      },
      ...fastifyCoercion('/v1'),
      lenientId('its ajv coerces the path parameter (coerceTypes): "1\\n" == +"1\\n" and "1e0" == +"1e0" hold'),
      roundsBeyond2pow53(
        'Fastify parses bodies with secure-json-parse (JSON.parse), and ajv’s type integer takes the double',
      ),
      readsInexact('JSON.parse, then ajv’s type integer'),
      {
        statement: /^createPet: new id: the service answered with id \d+; the existing animal has id \d+$/,
        why: 'Fastify’s removeAdditional (default true) strips only where additionalProperties is false: a client id reaches the handler, and {id: nextId++, ...body} lets it win',
      },
    ],
  },
  {
    id: 'fastify-errors',
    name: 'Fastify 5, route schemas, setErrorHandler mapping errors to Error',
    start: () => startFastifyApp({ errorHandler: true }),
    args: ['--generate', '100'],
    exit: 1,
    expect: duplicateIsConsequence,
    causes: [
      ...fastifyCoercion('/v1'),
      lenientId('its ajv coerces the path parameter (coerceTypes): "1\\n" == +"1\\n" and "1e0" == +"1e0" hold'),
      {
        statement: new RegExp(`^\`Error\` must have required property 'status' \\(status\\)${GOT_OBJECT}$`),
        why: 'a path that is not UTF-8 (/v1/pets/%FF) is refused by Fastify’s router before any route, with FST_ERR_BAD_URL in Fastify’s own body: setErrorHandler does not see framework errors (that takes the frameworkErrors option)',
      },
      roundsBeyond2pow53(
        'Fastify parses bodies with secure-json-parse (JSON.parse), and ajv’s type integer takes the double',
      ),
      readsInexact('JSON.parse, then ajv’s type integer'),
      {
        statement: /^createPet: new id: the service answered with id \d+; the existing animal has id \d+$/,
        why: 'the error handler changes nothing here: removeAdditional strips nothing without additionalProperties false, and {id: nextId++, ...body} lets a client id win',
      },
    ],
  },
  {
    id: 'nest',
    name: 'NestJS 12 (Express), class-validator DTOs through ValidationPipe, a guard for the key',
    start: () => startNestApp(),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      {
        statement: new RegExp(
          `^\`Error\` must have required property 'code' \\(code\\)${GOT_OBJECT}, in listPets, createPet and getPet$`,
        ),
        why: 'Nest answers its errors as {statusCode, message, error}: ValidationPipe’s 400 (message an array), body-parser’s 400, ParseIntPipe’s 400, NotFoundException’s 404 and the guard’s UnauthorizedException 401; none is an Error; one cause on every operation',
      },
      roundsBeyond2pow53(
        'Nest’s body parser is JSON.parse, and class-validator’s @IsInt() (Number.isInteger) takes the double',
      ),
      ...accepts('/v1', {
        'status is null':
          'class-validator’s @IsOptional() skips null as well as undefined: status: null passes ValidationPipe and is stored (and listed back)',
        'categoryId is beyond int64':
          'body-parser’s JSON.parse reads 9223372036854775808 as a double with no fraction, and @IsInt() (Number.isInteger) takes it',
        [NOT_UTF8]:
          'body-parser decodes a body that is not UTF-8 with U+FFFD in place of the bytes, so it passes ValidationPipe and the replacement is stored',
      }),
      readsInexact('JSON.parse, then @IsInt()'),
    ],
  },
  {
    id: 'hono',
    name: 'Hono 4 on @hono/node-server, bearerAuth, zValidator with a hook answering Error',
    start: () => startHonoApp(),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      {
        statement:
          /^answers with the wrong media type: expected application\/json, got "text\/plain;charset=UTF-8", in createPet, listPets and getPet$/,
        why: 'with no app.onError, Hono answers an HTTPException in plain text: bearerAuth’s 401 Unauthorized on every operation, and the json validator’s 400 Malformed JSON in request body (an empty or malformed body), thrown before zValidator’s hook runs; one cause on every operation',
      },
      ...accepts('/v1', {
        [NOT_UTF8]:
          'a body that is not UTF-8 is decoded by c.req.json() with a TextDecoder that replaces the bytes with U+FFFD, so it passes zValidator and the animal is stored with another name than the bytes sent',
      }),
      lenientId('PetParams is z.coerce.number().int(), which is Number(): Number("1\\n") and Number("1e0") are 1'),
      {
        statement:
          /^GET \/v1\/pets, POST \/v1\/pets and GET \/v1\/pets\/\{petId\} answer 400 where the contract requires 401$/,
        why: 'bearerAuth answers 400 Bad Request (error="invalid_request") to an Authorization that is not Bearer and a token: the Basic scheme, the key with no scheme or after "Bearer:", an empty token, on every operation; the contract says 401 for a missing or wrong key',
      },
      readsInexact(
        'c.req.json() is JSON.parse, and zod 4’s .int() takes any safe integer (beyond 2^53 it refuses: an allowed 400)',
      ),
    ],
  },
  {
    id: 'java',
    name: 'Java 17 on com.sun.net.httpserver, records read and written by a default Jackson ObjectMapper',
    start: () => startJavaApp(),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      {
        statement:
          /^`Pet\.status` must be string \(got null\), in (createPet|listPets|getPet), (createPet|listPets|getPet) and (createPet|listPets|getPet)$/,
        why: 'a default ObjectMapper writes every record component, null ones too (JsonInclude ALWAYS): an animal created without status is answered, listed and fetched with "status": null, which is no PetStatus; the other answers that fail only on that (the exact, beyond-2^53 and client-id cases, the generated reads) are its consequences',
      },
      ...accepts('/v1', {
        'name is a number':
          'Jackson’s default scalar coercion (ALLOW_COERCION_OF_SCALARS) reads name 42 into the String component as "42"',
        'name is a boolean': 'the same coercion reads name true and false as "true" and "false"',
        'categoryId is a string': 'the same coercion reads categoryId "1" into the Long component as 1',
        'categoryId is not an integer': 'ACCEPT_FLOAT_AS_INT (on by default) reads categoryId 1.5 as 1',
        'status is a number':
          'FAIL_ON_NUMBERS_FOR_ENUMS is off by default: status 1 is read as the enum’s index, pending',
        'status is null':
          'the NewPet record takes status null as absent and stores it (written back as "status": null)',
        'data follows the JSON value':
          'ObjectMapper.readValue reads the first value and ignores what follows (FAIL_ON_TRAILING_TOKENS is off by default): {…}xyz and {…}{"x": 1} are stored',
        [NOT_UTF8]:
          'its UTF-8 reader lets through bytes that are not UTF-8 (an overlong "/" C0 AF stored as "/", an encoded surrogate ED A0 80 as \\uD800: the generated notUtf8.name)',
      }),
      {
        statement: /^answers with the wrong media type: expected application\/json, got "text\/html"$/,
        why: 'com.sun.net.httpserver parses the request target into a java.net.URI before any handler runs: a query with a broken escape (limit=%, status=%zz) gets its own "<h1>400 Bad Request</h1>URISyntaxException thrown" as text/html, not an Error',
      },
      readsInexact('ACCEPT_FLOAT_AS_INT (on by default) truncates a fraction to a long'),
    ],
  },
  {
    id: 'mojolicious',
    name: 'Perl, Mojolicious::Lite 9 with its Validator, the id placeholder of type num, production mode',
    start: () => startMojoliciousApp(),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      ...accepts('/v1', {
        'name is a number':
          'Mojolicious::Validator checks text, not JSON types: required(name) needs a defined value, and 42 is one',
        'name is a boolean': 'required(name) takes a JSON::PP::Boolean, a defined value',
        'name is an object': 'required(name) takes {"first": …}, a defined value, and it is stored as sent',
        'name is an array':
          'the validator reads an array as the field’s several values, each defined: ["x"] passes and is stored',
        'categoryId is a string': 'num (/^-?[0-9]+$/) matches the text "1"',
        'categoryId is a boolean': 'true is a JSON::PP::Boolean whose text is "1", which num matches',
        'categoryId is an array': 'num checks each of the array’s values: [1] passes and is stored',
        'categoryId is beyond int64':
          'num checks the digits, not the range: 9223372036854775808 and -9223372036854775809 pass and are stored beyond int64',
        'status is null': 'optional(status) skips an undefined value: null passes and is stored',
        'status is an array': 'in(…) checks each of the array’s values: ["available"] passes and is stored',
        [NOT_UTF8]:
          'Mojo::JSON decodes an encoded surrogate (ED A0 80, the generated notUtf8.name) to replacement characters, and the animal is stored under another name than the bytes sent',
      }),
      {
        statement: /^answers with the wrong media type: expected application\/json, got "text\/html;charset=UTF-8"$/,
        why: 'the route /pets/<petId:num> (num is [0-9]+) does not match abc, 1.5 or %FF, nor -1, a valid int64 the generated getPet sends: Mojolicious’s router answers each with its own HTML "Page Not Found", not an Error',
      },
      {
        statement: /^createPet: exact: categoryId 1e-400 was stored changed: the answer reads 0(\.0)?$/,
        why: 'Mojo::JSON reads 1e-400 as a Perl number, which underflows to 0; num sees "0", and it is stored and answered as 0.0',
      },
    ],
  },
  {
    id: 'python',
    name: 'Python 3 standard library: http.server, json.loads, int() and isinstance() checks',
    start: () => startPythonApp(),
    args: ['--generate', '100'],
    exit: 1,
    causes: [
      ...accepts('/v1', {
        'categoryId is a boolean':
          'isinstance(True, int) holds in Python (bool is a subclass of int): categoryId true is stored',
        'categoryId is beyond int64':
          'Python’s int is unbounded: 9223372036854775808 passes isinstance(…, int) and is stored as sent',
        'status is null': '"status is not None" takes status null as absent, and the animal is stored',
        'the body is not JSON':
          'json.loads accepts NaN and Infinity, which JSON has no literal for (RFC 8259 §6): {…, "extra": NaN} is stored',
      }),
      {
        statement:
          /^GET \/v1\/pets\/\{petId\} answers 200 where the suite accepts only 400 or 404 \(the contract lists 200, 401, 404 for getPet; 400 is the suite's reading of Endpoints §3 Get an animal \(deprecated\)\)$/u,
        why: 'int() reads digit separators (PEP 515): /v1/pets/0_1 answers animal 1 (getPet.malformed.trailing); the path is not percent-decoded, so 1%0A and 1%00 are refused',
      },
      {
        statement: /^createPet: no usable answer: UND_ERR_SOCKET: other side closed$/,
        why: 'json.loads(bytes) decodes UTF-8 first and raises UnicodeDecodeError, a ValueError but not the json.JSONDecodeError the handler catches: the exception ends the handler and socketserver closes the connection without an answer to a body that is not UTF-8',
      },
    ],
    // The same statement would be a client's stale keep-alive socket elsewhere; here it must be the body's own case.
    expect: (r) => {
      const closed = r.causes?.find((c) => /no usable answer/.test(c.statement));
      return closed?.cases.includes('createPet.invalid.notUtf8')
        ? []
        : [`the connection closed without an answer must be createPet.invalid.notUtf8's, got ${closed?.cases}`];
    },
  },
  {
    id: 'mock-chaos',
    name: 'our mock with --chaos 0.05, --generate 200',
    start: async () => {
      const mock = await startMockServer({ chaos: 0.05, apiKeys: ['chaos-key'] });
      return { url: `${mock.origin}/v1`, apiKey: 'chaos-key', close: () => mock.close() };
    },
    args: ['--generate', '200'],
    exit: 1,
    causes: [
      {
        statement: /^(GET|POST) \/v1\/pets(\/\{petId\}|\/[^ ]+)? answers a server error \(5\d\d\)$/,
        why: 'chaos answers 5% of requests with a 5xx: a 5xx is a required failure wherever it appears',
      },
    ],
    expect: (r) => {
      const generated = r.cases.filter((c) => c.outcome === 'failed' && c.id.startsWith('generated.'));
      const shrunk = generated.filter((c) => !/intermittent: \d of 4/.test(c.reason ?? ''));
      const spent = r.generation?.shrinkRequests ?? 0;
      return [
        ...shrunk.map((c) => `${c.id} should be intermittent, not shrunk: ${c.reason}`),
        ...(spent > 0 ? [`no flaky failure may be shrunk, ${spent} shrinking requests were sent`] : []),
      ];
    },
  },
  {
    id: 'mock-rate-limit',
    name: 'our mock with --rate-limit 5, --generate 200 --max-wait 5s',
    start: async () => {
      const mock = await startMockServer({ rateLimit: 5, apiKeys: ['rate-key'] });
      return { url: `${mock.origin}/v1`, apiKey: 'rate-key', close: () => mock.close() };
    },
    args: ['--generate', '200', '--max-wait', '5s'],
    exit: 2,
    causes: [],
    expect: (r) => [
      ...(r.summary.failed === 0 ? [] : [`a throttled run fails nothing, ${r.summary.failed} failed`]),
      ...(r.cases.some((c) => c.outcome === 'skipped' && /throttled/.test(c.reason ?? ''))
        ? []
        : ['some case must be not judged: throttled']),
    ],
  },
];

function paint(style: Parameters<typeof styleText>[0], text: string): string {
  return styleText(style, text, { stream: process.stdout });
}

/** What one run printed, and the problems found: none when the run is as reviewed. */
export interface TargetRun {
  lines: string[];
  problems: string[];
}

/** Runs the CLI against one target, writing its JSON report in `dir`. */
export async function runTarget(t: Target, dir: string): Promise<TargetRun> {
  const server = await t.start();
  const file = join(dir, `${TARGETS.indexOf(t)}.json`);
  const started = Date.now();
  try {
    const ran = await runProcess(
      [
        ...tsxEntry('conformance/cli.ts'),
        '--base-url',
        server.url,
        '--api-key',
        server.apiKey,
        '--reporter',
        `json=${file}`,
        ...t.args,
      ],
      { env: { ...process.env, NO_COLOR: '1' }, timeoutMs: 240_000 },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    const s = report.summary;
    const lines = [
      `  exit ${ran.code} in ${seconds} s: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.info} information, ${s.skipped} skipped, ${s.notApplicable} not applicable; ${report.causes?.length ?? 0} causes`,
    ];
    const problems: string[] = [];
    if (ran.code !== t.exit) problems.push(`exit ${ran.code}, must be ${t.exit}:\n${ran.stderr.slice(-2000)}`);
    const matched = new Set<Reviewed>();
    for (const cause of report.causes ?? []) {
      const reviewed = t.causes.find((r) => r.statement.test(cause.statement));
      const n = cause.cases.length + (cause.consequences?.length ?? 0);
      const line = `${cause.id} ${cause.statement} (${n} case${n === 1 ? '' : 's'})`;
      if (reviewed) {
        matched.add(reviewed);
        lines.push(`  ${paint('green', '✓')} ${line}`, `      true: ${reviewed.why}`);
        if (cause.consequences?.length)
          lines.push(`      and failing only because of it: ${cause.consequences.join(', ')}`);
      } else {
        lines.push(`  ${paint('red', '✗')} ${line}`, '      NOT REVIEWED: read it against the contract');
        problems.push(`unreviewed cause: ${cause.statement} (${cause.cases.join(', ')})`);
      }
    }
    for (const r of t.causes)
      if (!matched.has(r)) problems.push(`a reviewed cause was not reported: ${r.statement} (${r.why})`);
    problems.push(...(t.expect?.(report) ?? []));
    return { lines, problems };
  } finally {
    await server.close();
  }
}
