/**
 * The logic of the test-only fake Petstore: correct by default (it follows the
 * contract and every piece of advice), with switches that each break one
 * documented rule (`Violation`) or make another choice the interface allows
 * (`FakeChoices`). Pure: plain request in, plain response or action out.
 */
import type { Pet } from '../../spec/index.ts';

/** One documented rule broken on purpose. */
export type Violation =
  | 'list500' | 'listWrongContentType' | 'listNotArray' | 'limitIgnored' | 'defaultLimitIgnored' | 'limitOffByOne'
  | 'statusFilterIgnored' | 'outOfRangeLimit500' | 'unknownStatus500' | 'noAuth' | 'unauthorizedWithoutBody'
  | 'errorStatusMismatch' | 'errorsAsTextPlain' | 'wrongKeyAccepted' | 'basicAccepted' | 'emptyTokenAccepted'
  | 'validationBeforeAuth' | 'create200' | 'createNoEcho' | 'createdNotStored' | 'sameIdTwice' | 'noValidation'
  | 'floatCategoryAccepted' | 'nonJsonAccepted' | 'emptyBodyAccepted' | 'clientIdOverwrites' | 'getUnknown200'
  | 'notFoundWithoutBody' | 'malformedId500' | 'categoryIdAsString' | 'missingId' | 'hangOnGet' | 'hugeListBody'
  | 'garbageOnCreate' | 'resetOnCreate' | 'bigCategoryRounded';

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
  /** Test-only, not a choice: echo the Authorization header in a header and in bodies, to prove reports still hide the key. */
  echoAuthorization?: boolean;
}

/** A request as the fake handler sees it. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A plain response, or something a broken server does instead. */
export type FakeResult = { status: number; headers: Record<string, string>; body: string } | { action: 'hang' | 'garbage' | 'reset' | 'huge' };

/** Options of {@link createFakeHandler}. */
export interface FakeHandlerOptions {
  apiKey: string;
  count: number;
  violations: readonly Violation[];
  choices: FakeChoices;
}

const STATUSES = ['available', 'pending', 'sold'];
const JSON_HEADERS = { 'content-type': 'application/json' };
const INT64_MAX = 9223372036854775807n;

/** The fake's state and its request handler. */
export interface FakeHandler {
  pets: Map<number, Pet>;
  handle(req: FakeRequest): FakeResult;
}

/** Makes a fake handler seeded with `count` pets. */
export function createFakeHandler(options: FakeHandlerOptions): FakeHandler {
  const broken = new Set(options.violations);
  const c = options.choices;
  const first = c.bigIds ? 2 ** 32 + 7 : 1;
  const pets = new Map<number, Pet>();
  for (let i = 0; i < options.count; i++) {
    const pet: Pet = { id: first + i, name: `pet-${i}`, categoryId: (i % 5) + 1 };
    if (i % 7 !== 6) pet.status = STATUSES[i % 3] as Pet['status'];
    pets.set(pet.id, pet);
  }
  let nextId = first + options.count;

  function error(status: number, code: string, message: string, headers: Record<string, string> = {}): FakeResult {
    const type = broken.has('errorsAsTextPlain') ? 'text/plain' : 'application/json';
    const body = { code: c.errorCode ?? code, message, status: broken.has('errorStatusMismatch') ? status + 1 : status };
    return { status, headers: { ...headers, 'content-type': type }, body: JSON.stringify(body) };
  }

  function view(pet: Pet): Record<string, unknown> {
    const out: Record<string, unknown> = { ...pet };
    if (broken.has('categoryIdAsString')) out.categoryId = String(pet.categoryId);
    if (broken.has('missingId')) delete out.id;
    if (c.extraFields) Object.assign(out, { tags: ['friendly'], createdAt: '2024-01-01T00:00:00Z' });
    return out;
  }

  function unauthorized(req: FakeRequest): FakeResult | undefined {
    if (broken.has('noAuth')) return undefined;
    const header = req.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    const m = value ? /^(\S+)(?: +(.*))?$/.exec(value) : null;
    const scheme = m?.[1] ?? '';
    const token = (m?.[2] ?? '').trim();
    let ok: boolean;
    if (!m) ok = false;
    else if (scheme.toLowerCase() === 'basic') ok = broken.has('basicAccepted');
    else if (c.caseSensitiveScheme ? scheme !== 'Bearer' : scheme.toLowerCase() !== 'bearer') ok = false;
    else if (token === '') ok = broken.has('emptyTokenAccepted');
    else ok = token === options.apiKey || broken.has('wrongKeyAccepted');
    if (ok) return undefined;
    if (broken.has('unauthorizedWithoutBody')) return { status: 401, headers: {}, body: '' };
    const challenge: Record<string, string> = c.noAdviceHeaders ? {} : { 'www-authenticate': 'Bearer realm="fake"' };
    return error(401, 'unauthorized', 'API key missing or invalid', challenge);
  }

  function listPets(query: URLSearchParams): FakeResult {
    if (broken.has('list500')) return error(500, 'internal', 'boom');
    let limit = broken.has('defaultLimitIgnored') ? 1000 : 20;
    const rawLimit = query.get('limit');
    if (rawLimit !== null) {
      const n = Number(rawLimit);
      const valid = /^\d+$/.test(rawLimit) && n >= 1 && n <= 100;
      if (valid) limit = n;
      else if (c.lenient) limit = Number.isInteger(n) && rawLimit !== '' ? Math.min(100, Math.max(1, n)) : 20;
      else if (broken.has('outOfRangeLimit500') && /^-?\d+$/.test(rawLimit)) return error(500, 'internal', 'boom');
      else return error(400, 'invalid_parameter', 'limit must be an integer from 1 to 100');
    }
    const status = query.get('status');
    if (status !== null && !STATUSES.includes(status)) {
      if (broken.has('unknownStatus500')) return error(500, 'internal', 'boom');
      if (!c.lenient) return error(400, 'invalid_parameter', 'status must be available, pending or sold');
      return { status: 200, headers: JSON_HEADERS, body: '[]' };
    }
    let items = [...pets.values()].sort((a, b) => (c.descending ? b.id - a.id : a.id - b.id));
    if (status !== null && !broken.has('statusFilterIgnored')) items = items.filter((p) => p.status === status);
    if (!broken.has('limitIgnored')) items = items.slice(0, broken.has('limitOffByOne') ? limit + 1 : limit);
    if (broken.has('hugeListBody')) return { action: 'huge' };
    const json = items.map(view);
    const body = JSON.stringify(broken.has('listNotArray') ? { items: json } : json);
    return { status: 200, headers: { 'content-type': broken.has('listWrongContentType') ? 'text/plain' : 'application/json' }, body };
  }

  function parseNewPet(req: FakeRequest): { pet?: Record<string, unknown>; failure?: FakeResult } {
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json' && !broken.has('nonJsonAccepted')) {
      return { failure: c.nonJson415 ? error(415, 'unsupported_media_type', 'send application/json') : error(400, 'invalid_body', 'send application/json') };
    }
    if (req.body === '') return broken.has('emptyBodyAccepted') ? { pet: { name: 'empty', categoryId: 1 } } : { failure: error(400, 'invalid_body', 'empty body') };
    let body: unknown;
    try {
      body = JSON.parse(req.body);
    } catch {
      return { failure: error(400, 'malformed_json', 'body is not JSON') };
    }
    if (broken.has('noValidation')) return { pet: (body ?? {}) as Record<string, unknown> };
    const b = body as Record<string, unknown>;
    const isObject = b !== null && typeof b === 'object' && !Array.isArray(b);
    // A double cannot hold every int64: refuse what it would round, unless rounding is the violation.
    const integer = broken.has('bigCategoryRounded') ? Number.isInteger(b?.categoryId) : Number.isSafeInteger(b?.categoryId);
    const categoryOk = isObject && (integer || (broken.has('floatCategoryAccepted') && typeof b.categoryId === 'number'));
    const ok = isObject && typeof b.name === 'string' && categoryOk && (b.status === undefined || STATUSES.includes(b.status as string));
    return ok ? { pet: b } : { failure: error(400, 'invalid_body', 'body is not a valid NewPet') };
  }

  function createPet(req: FakeRequest): FakeResult {
    if (broken.has('garbageOnCreate')) return { action: 'garbage' };
    if (broken.has('resetOnCreate')) return { action: 'reset' };
    const { pet: input, failure } = parseNewPet(req);
    if (failure) return failure;
    const clientId = input!.id;
    let id: number;
    if (broken.has('clientIdOverwrites') && typeof clientId === 'number' && pets.has(clientId)) id = clientId;
    else id = broken.has('sameIdTwice') ? nextId : nextId++;
    const pet = { id, name: input!.name, categoryId: input!.categoryId, ...(input!.status === undefined ? {} : { status: input!.status }) } as Pet;
    if (!broken.has('createdNotStored')) pets.set(id, pet);
    const shown = broken.has('createNoEcho') ? { ...pet, name: 'renamed' } : pet;
    return { status: broken.has('create200') ? 200 : 201, headers: JSON_HEADERS, body: JSON.stringify(view(shown)) };
  }

  function getPet(idText: string): FakeResult {
    if (broken.has('hangOnGet')) return { action: 'hang' };
    const headers: Record<string, string> = c.noAdviceHeaders ? {} : { deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };
    if (!/^\d+$/.test(idText) || BigInt(idText) > INT64_MAX) {
      if (broken.has('malformedId500')) return error(500, 'internal', 'boom');
      return c.malformedId404 ? error(404, 'not_found', 'no such animal', headers) : error(400, 'invalid_parameter', 'petId must be an int64', headers);
    }
    const pet = pets.get(Number(idText));
    if (pet) return { status: 200, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(view(pet)) };
    if (broken.has('getUnknown200')) return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ id: Number(idText), name: 'ghost', categoryId: 1 }) };
    if (broken.has('notFoundWithoutBody')) return { status: 404, headers, body: '' };
    return error(404, 'not_found', 'no such animal', headers);
  }

  function invalidBeforeAuth(req: FakeRequest, path: string, query: URLSearchParams): FakeResult | undefined {
    if (path === '/v1/pets' && req.method === 'GET' && (query.has('limit') || query.has('status'))) {
      const r = listPets(query);
      return 'status' in r && r.status === 400 ? r : undefined;
    }
    if (path === '/v1/pets' && req.method === 'POST') return parseNewPet(req).failure;
    const m = /^\/v1\/pets\/([^/]+)$/.exec(path);
    if (m && !/^\d+$/.test(m[1]!)) return error(400, 'invalid_parameter', 'petId must be an int64');
    return undefined;
  }

  function handle(req: FakeRequest): FakeResult {
    const result = route(req);
    if (!c.echoAuthorization || 'action' in result) return result;
    const echo = String(req.headers.authorization ?? '');
    const body = result.body.startsWith('{') ? `{"echo":${JSON.stringify(echo)},${result.body.slice(1)}` : result.body;
    return { ...result, headers: { ...result.headers, 'x-echo-authorization': echo }, body };
  }

  function route(req: FakeRequest): FakeResult {
    const url = new URL(req.url, 'http://fake.invalid');
    if (broken.has('validationBeforeAuth')) {
      const early = invalidBeforeAuth(req, url.pathname, url.searchParams);
      if (early) return early;
    }
    const denied = unauthorized(req);
    if (denied) return denied;
    if (url.pathname === '/v1/pets' && req.method === 'GET') return listPets(url.searchParams);
    if (url.pathname === '/v1/pets' && req.method === 'POST') return createPet(req);
    const m = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') return getPet(decodeURIComponent(m[1]!));
    return error(404, 'not_found', 'no such route');
  }

  return { pets, handle };
}
