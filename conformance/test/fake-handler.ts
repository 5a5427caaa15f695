/**
 * The logic of the test-only fake Petstore: correct by default (it follows the
 * contract and every piece of advice), with switches that each break one
 * documented rule (`Violation`) or make another choice the interface allows
 * (`FakeChoices`). Pure: plain request in, plain response or action out; the
 * operations themselves are in fake-operations.ts.
 */
import { type Pet, petStatuses } from '../../spec/index.ts';
import { createPet, error, type FakeState, getPet, invalidBeforeAuth, listPets } from './fake-operations.ts';

/** One documented rule broken on purpose. */
export type Violation =
  | 'list500'
  /** Every listing without an (undocumented) `page` parameter gets a 400 Error. */
  | 'listRequiresParam'
  | 'listWrongContentType'
  | 'listNotArray'
  | 'limitIgnored'
  | 'defaultLimitIgnored'
  | 'limitOffByOne'
  | 'statusFilterIgnored'
  | 'outOfRangeLimit500'
  | 'unknownStatus500'
  | 'noAuth'
  | 'unauthorizedWithoutBody'
  | 'errorStatusMismatch'
  | 'errorsAsTextPlain'
  | 'wrongKeyAccepted'
  | 'basicAccepted'
  | 'emptyTokenAccepted'
  /** Only the token's length is compared with the key's (a constant-time compare whose loop never runs). */
  | 'keyLengthOnly'
  /** The token is compared with the key as far as the shorter reaches: a prefix of the key, or the key run on, passes. */
  | 'keyPrefixCompare'
  /** The token is compared with the key without regard to case. */
  | 'keyCaseInsensitive'
  /** GET /pets/{petId} looks the animal up before the key: a wrong key gets 404 for an unknown id, 401 for a known one. */
  | 'lookupBeforeAuth'
  | 'create200'
  | 'createNoEcho'
  | 'createdNotStored'
  | 'sameIdTwice'
  | 'noValidation'
  | 'floatCategoryAccepted'
  | 'nonJsonAccepted'
  | 'emptyBodyAccepted'
  | 'clientIdOverwrites'
  | 'getUnknown200'
  | 'notFoundWithoutBody'
  | 'malformedId500'
  | 'categoryIdAsString'
  | 'missingId'
  /** A Pet without a status is written with `"status": null` (a serialiser that writes every field). */
  | 'statusNull'
  | 'hangOnGet'
  | 'hugeListBody'
  | 'garbageOnCreate'
  | 'resetOnCreate'
  | 'bigCategoryRounded'
  | 'inexactCategoryRounded'
  | 'petsInProtoKey'
  /** A body that is not UTF-8 gets a 500 (aiohttp's UnicodeDecodeError slipping past `except json.JSONDecodeError`). */
  | 'notUtf8Body500';

/**
 * Bugs no fixed case sends a request for, each breaking one documented rule for some values only: the
 * generated cases must find each and shrink it to the smallest request or sequence.
 */
export type GeneratedBug =
  /** 500 for a create whose categoryId is 0. */
  | 'categoryIdZero500'
  /** Names longer than 64 characters (code points) are cut to 64 (the answer and the store). */
  | 'longNameCut'
  /** One item too many for a limit from 37 to 42. */
  | 'limitOneTooManySome'
  /** An animal whose name holds a slash is answered 201 but never stored. */
  | 'slashNameLost'
  /** status=pending is ignored when limit is from 51 to 99 (a combination of parameters). */
  | 'pendingFilterIgnoredMidLimit'
  /** Once the store holds more than 170 animals, each create drops the animal created just before it. */
  | 'evictWhenCrowded'
  /** 500 for a negative petId. */
  | 'negativeId500'
  /** A status in another case (`AVAILABLE`) is accepted on create. */
  | 'statusCaseInsensitive'
  /** 500 for a limit beyond 2^31 - 1 (a 32-bit parse). */
  | 'bigLimit500'
  /** A status with spaces around it gets a 400 that is not an Error. */
  | 'paddedStatusBareError'
  /** status=sold with a limit from 10 to 15 repeats the first item in place of the last. */
  | 'duplicateSoldPage'
  /** Animals with a negative categoryId are stored and fetchable, but never listed. */
  | 'negativeCategoryUnlisted'
  /** A name holding `<` gets a 400 HTML page, not an Error. */
  | 'markupNameBareError'
  /** A create whose name an animal already has overwrites that animal, under its id. */
  | 'sameNameSameId'
  /** getPet keeps only the low 32 bits of petId. */
  | 'bigIdWrapped';

/** Other choices the interface leaves open; none of them is a violation. */
export interface FakeChoices {
  /** List in descending id order. */
  descending?: boolean;
  /** Answer an invalid `limit` with 200 (clamped to 1..100, default when not a number) and an unknown status with 200 []. */
  lenient?: boolean;
  /** 404 rather than 400 for malformed ids. */
  malformedId404?: boolean;
  /** 415 rather than 400 for a non-JSON Content-Type. */
  nonJson415?: boolean;
  /** Pets carry fields the spec does not name. */
  extraFields?: boolean;
  /** Use this code string in every Error. */
  errorCode?: string;
  /** Ids start above 2^32. */
  bigIds?: boolean;
  /** No WWW-Authenticate, Deprecation or Sunset headers. */
  noAdviceHeaders?: boolean;
  /** Only `Bearer` exactly, not `bearer`. */
  caseSensitiveScheme?: boolean;
  /** Keep a categoryId beyond 2^53 exactly (read the raw digits, echo them as sent) rather than refuse it. */
  bigCategoryExact?: boolean;
  /** Refuse a create that carries a client `id` with a 400 Error, rather than ignore the id. */
  clientId400?: boolean;
  /** Refuse with a 400 Error a name that is empty, longer than 64 characters or holds control characters. */
  refuseUnusualNames?: boolean;
  /** Validate before checking the key (express.json() before the auth middleware): a wrong key and an invalid request get 400. */
  validationBeforeAuth?: boolean;
  /**
   * A router that takes only digits as petId (Flask's `<int:pet_id>`): any other segment gets the unknown route's
   * 404 Error before the key is checked, the same with no key, a wrong key and the right key.
   */
  routerDigitsOnly?: boolean;
  /** Test-only, not a choice: echo the Authorization header in a header and in bodies, to prove reports still hide the key. */
  echoAuthorization?: boolean;
}

/** A request as the fake handler sees it. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Set when the body's bytes are not UTF-8 (`body` then holds U+FFFD in their place). */
  bodyNotUtf8?: boolean;
}

/** A plain response, or something a broken server does instead. */
export type FakeResult =
  | { status: number; headers: Record<string, string>; body: string }
  | { action: 'hang' | 'garbage' | 'reset' | 'huge' };

/** Options of {@link createFakeHandler}. */
export interface FakeHandlerOptions {
  apiKey: string;
  count: number;
  violations: readonly Violation[];
  choices: FakeChoices;
  bugs?: readonly GeneratedBug[];
}

/** The fake's state and its request handler. */
export interface FakeHandler {
  pets: Map<number, Pet>;
  handle(req: FakeRequest): FakeResult;
}

function seed(first: number, count: number): Map<number, Pet> {
  const pets = new Map<number, Pet>();
  const statuses = petStatuses();
  for (let i = 0; i < count; i++) {
    const pet: Pet = { id: first + i, name: `pet-${i}`, categoryId: (i % 5) + 1 };
    if (i % 7 !== 6) pet.status = statuses[i % statuses.length];
    pets.set(pet.id, pet);
  }
  return pets;
}

/** Makes a fake handler seeded with `count` pets. */
export function createFakeHandler(options: FakeHandlerOptions): FakeHandler {
  const first = options.choices.bigIds ? 2 ** 32 + 7 : 1;
  const s: FakeState = {
    apiKey: options.apiKey,
    broken: new Set(options.violations),
    bugs: new Set(options.bugs ?? []),
    c: options.choices,
    pets: seed(first, options.count),
    nextId: first + options.count,
  };
  return { pets: s.pets, handle: (req) => echoAuthorization(s, req, route(s, req)) };
}

function credentialsOk(s: FakeState, value: string | undefined): boolean {
  const m = value ? /^(\S+)(?: +(.*))?$/.exec(value) : null;
  if (!m) return false;
  const scheme = m[1]!;
  const token = (m[2] ?? '').trim();
  if (scheme.toLowerCase() === 'basic') return s.broken.has('basicAccepted');
  if (s.c.caseSensitiveScheme ? scheme !== 'Bearer' : scheme.toLowerCase() !== 'bearer') return false;
  if (token === '') return s.broken.has('emptyTokenAccepted');
  if (s.broken.has('keyLengthOnly')) return token.length === s.apiKey.length;
  if (s.broken.has('keyPrefixCompare')) return token.startsWith(s.apiKey) || s.apiKey.startsWith(token);
  if (s.broken.has('keyCaseInsensitive')) return token.toLowerCase() === s.apiKey.toLowerCase();
  return token === s.apiKey || s.broken.has('wrongKeyAccepted');
}

function unauthorized(s: FakeState, req: FakeRequest): FakeResult | undefined {
  if (s.broken.has('noAuth')) return undefined;
  const header = req.headers.authorization;
  if (credentialsOk(s, Array.isArray(header) ? header[0] : header)) return undefined;
  if (s.broken.has('unauthorizedWithoutBody')) return { status: 401, headers: {}, body: '' };
  const challenge: Record<string, string> = s.c.noAdviceHeaders ? {} : { 'www-authenticate': 'Bearer realm="fake"' };
  return error(s, 401, 'unauthorized', 'API key missing or invalid', challenge);
}

function echoAuthorization(s: FakeState, req: FakeRequest, result: FakeResult): FakeResult {
  if (!s.c.echoAuthorization || 'action' in result) return result;
  const echo = String(req.headers.authorization ?? '');
  const body = result.body.startsWith('{') ? `{"echo":${JSON.stringify(echo)},${result.body.slice(1)}` : result.body;
  return { ...result, headers: { ...result.headers, 'x-echo-authorization': echo }, body };
}

function route(s: FakeState, req: FakeRequest): FakeResult {
  const url = new URL(req.url, 'http://fake.invalid');
  if (s.c.validationBeforeAuth) {
    const early = invalidBeforeAuth(s, req, url.pathname, url.searchParams);
    if (early) return early;
  }
  if (s.c.routerDigitsOnly && req.method === 'GET' && /^\/v1\/pets\/[^/]*\D[^/]*$/.test(url.pathname))
    return error(s, 404, 'not_found', 'no such route');
  // Broken: the animal is looked up before the key is checked, so a wrong key learns which ids exist (404 or 401).
  const looked = s.broken.has('lookupBeforeAuth') && req.method === 'GET' && /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
  if (looked && !(/^\d+$/.test(looked[1]!) && s.pets.has(Number(looked[1]))))
    return error(s, 404, 'not_found', 'no such pet');
  const denied = unauthorized(s, req);
  if (denied) return denied;
  if (url.pathname === '/v1/pets' && req.method === 'GET') return listPets(s, url.searchParams);
  if (url.pathname === '/v1/pets' && req.method === 'POST') return createPet(s, req);
  const m = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
  if (m && req.method === 'GET') return getPet(s, decodedSegment(m[1]!));
  return error(s, 404, 'not_found', 'no such route');
}

/** A path segment percent-decoded; one whose bytes are not UTF-8 stays as sent (a malformed id either way). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
