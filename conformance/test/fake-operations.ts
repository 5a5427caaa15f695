/**
 * The fake Petstore's three operations and its Error bodies, each a small
 * function of the fake's state: correct unless a violation or choice says otherwise.
 */
import { listPetsLimit, type Pet, petStatuses } from '../../spec/index.ts';
import {
  createBugResponse,
  filterIgnoredByBug,
  getBugResponse,
  listBugResponse,
  lookupId,
  nameWithBugs,
  pageWithBugs,
  reusedId,
  storeWithBugs,
} from './fake-bugs.ts';
import { decodedBody, decodedText, looseStatusAccepted, parsedIdText } from './fake-decoders.ts';
import { parseKeepingBigInts, RawNumber, toJson } from './fake-json.ts';
import { error, type FakeRequest, type FakeResult, type FakeState } from './fake-model.ts';

const STATUSES: readonly string[] = petStatuses();
const LIMIT = listPetsLimit();
const JSON_HEADERS = { 'content-type': 'application/json' };
const INT64_MAX = 9223372036854775807n;

function view(s: FakeState, pet: Pet): Record<string, unknown> {
  const out: Record<string, unknown> = { ...pet };
  if (s.broken.has('categoryIdAsString')) out.categoryId = String(pet.categoryId);
  if (s.broken.has('missingId')) delete out.id;
  if (s.broken.has('statusNull') && out.status === undefined) out.status = null;
  if (s.c.extraFields) Object.assign(out, { tags: ['friendly'], createdAt: '2024-01-01T00:00:00Z' });
  return out;
}

/** The page size a `limit` asks for, or the response refusing it. */
function pageSize(s: FakeState, rawLimit: string | null): number | FakeResult {
  const fallback = s.broken.has('defaultLimitIgnored') ? 1000 : LIMIT.default;
  if (rawLimit === null) return fallback;
  const n = Number(rawLimit);
  if (/^\d+$/.test(rawLimit) && n >= LIMIT.minimum && n <= LIMIT.maximum) return n;
  if (s.c.lenient)
    return Number.isInteger(n) && rawLimit !== '' ? Math.min(LIMIT.maximum, Math.max(LIMIT.minimum, n)) : LIMIT.default;
  if (s.broken.has('outOfRangeLimit500') && /^-?\d+$/.test(rawLimit)) return error(s, 500, 'internal', 'boom');
  return error(s, 400, 'invalid_parameter', 'limit must be an integer from 1 to 100');
}

/** The answer to an unknown status value, or undefined when the value is known (or absent). */
function unknownStatus(s: FakeState, status: string | null): FakeResult | undefined {
  if (status === null || STATUSES.includes(status)) return undefined;
  if (s.broken.has('unknownStatus500')) return error(s, 500, 'internal', 'boom');
  if (!s.c.lenient) return error(s, 400, 'invalid_parameter', 'status must be available, pending or sold');
  return { status: 200, headers: JSON_HEADERS, body: '[]' };
}

/** Each item wrapped as `{"__proto__": item}`: no own id, name or categoryId, only a field named `__proto__`. */
function inProtoKeys(items: unknown[]): string {
  return `[${items.map((p) => `{"__proto__":${toJson(p)}}`).join(',')}]`;
}

/** GET /pets (through the listingCacheByLimit violation's cache, when it is on). */
export function listPets(s: FakeState, query: URLSearchParams): FakeResult {
  if (!s.broken.has('listingCacheByLimit')) return freshListing(s, query);
  const key = Number(query.get('limit') ?? LIMIT.default);
  s.listings ??= new Map();
  const kept = s.listings.get(key) ?? freshListing(s, query);
  s.listings.set(key, kept);
  return kept;
}

function freshListing(s: FakeState, query: URLSearchParams): FakeResult {
  if (s.broken.has('list500')) return error(s, 500, 'internal', 'boom');
  if (s.broken.has('listRequiresParam') && !query.has('page'))
    return error(s, 400, 'invalid_request', 'query parameter page is required');
  const early = listBugResponse(s, query.get('limit'), query.get('status'));
  if (early) return early;
  const limit = pageSize(s, query.get('limit'));
  if (typeof limit !== 'number') return limit;
  const status = query.get('status');
  if (status === null && [...(s.storedBehind500 ?? [])].some((id) => s.pets.has(id)))
    return error(s, 500, 'internal', 'cannot list a half-stored animal');
  const refused = unknownStatus(s, status);
  if (refused) return refused;
  let items = [...s.pets.values()].sort((a, b) => (s.c.descending ? b.id - a.id : a.id - b.id));
  const filterIgnored = s.broken.has('statusFilterIgnored') || filterIgnoredByBug(s, status, limit);
  if (status !== null && !filterIgnored) items = items.filter((p) => p.status === status);
  if (!s.broken.has('limitIgnored'))
    items = pageWithBugs(s, items, s.broken.has('limitOffByOne') ? limit + 1 : limit, status);
  if (s.broken.has('hugeListBody')) return { action: 'huge' };
  const json = items.map((p) => view(s, p));
  const body = s.broken.has('listNull')
    ? 'null'
    : s.broken.has('petsInProtoKey')
      ? inProtoKeys(json)
      : toJson(s.broken.has('listNotArray') ? { items: json } : json);
  return {
    status: 200,
    headers: { 'content-type': s.broken.has('listWrongContentType') ? 'text/plain' : 'application/json' },
    body,
  };
}

/** An int64 read exactly (the bigCategoryExact choice), or a number the way the fake reads it. */
function isCategoryId(s: FakeState, v: unknown): boolean {
  if (typeof v === 'bigint') return v >= -INT64_MAX - 1n && v <= INT64_MAX;
  // A double cannot hold every int64: refuse what it would round, unless rounding is the violation.
  return s.broken.has('bigCategoryRounded') ? Number.isInteger(v) : Number.isSafeInteger(v);
}

function isNewPet(s: FakeState, b: Record<string, unknown>): boolean {
  const isObject = b !== null && typeof b === 'object' && !Array.isArray(b);
  const integer = isCategoryId(s, b?.categoryId);
  const categoryOk =
    isObject && (integer || (s.broken.has('floatCategoryAccepted') && typeof b.categoryId === 'number'));
  return (
    isObject &&
    typeof b.name === 'string' &&
    categoryOk &&
    (b.status === undefined ||
      looseStatusAccepted(s, b.status) ||
      STATUSES.includes(
        s.bugs.has('statusCaseInsensitive') && typeof b.status === 'string'
          ? b.status.toLowerCase()
          : (b.status as string),
      ))
  );
}

/** The NewPet in a create request, or the response refusing it. */
function parseNewPet(s: FakeState, req: FakeRequest): { pet?: Record<string, unknown>; failure?: FakeResult } {
  if (s.broken.has('noContentType500') && req.headers['content-type'] === undefined)
    return { failure: error(s, 500, 'internal', "TypeError: cannot read properties of undefined (reading 'split')") };
  if (s.broken.has('contentTypeComparedWhole') && req.headers['content-type'] !== 'application/json')
    return { failure: error(s, 415, 'unsupported_media_type', 'send application/json') };
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && !s.c.nonJsonParsed) {
    return {
      failure: s.c.nonJson415
        ? error(s, 415, 'unsupported_media_type', 'send application/json')
        : error(s, 400, 'invalid_body', 'send application/json'),
    };
  }
  if (req.bodyNotUtf8)
    return {
      failure: s.broken.has('notUtf8Body500')
        ? error(s, 500, 'internal', 'UnicodeDecodeError')
        : error(s, 400, 'malformed_json', 'body is not UTF-8'),
    };
  if (req.body === '')
    return s.broken.has('emptyBodyAccepted')
      ? { pet: { name: 'empty', categoryId: 1 } }
      : { failure: error(s, 400, 'invalid_body', 'empty body') };
  let body: unknown;
  try {
    const text = decodedText(s, req.body);
    body = decodedBody(s, s.c.bigCategoryExact ? parseKeepingBigInts(text) : JSON.parse(text), text);
  } catch {
    return { failure: error(s, 400, 'malformed_json', 'body is not JSON') };
  }
  if (s.broken.has('noValidation')) return { pet: (body ?? {}) as Record<string, unknown> };
  // JSON.parse reads 4503599627370496.5 as 2^52 and 1e-400 as 0: a number not written as an integer is refused.
  // The last `"categoryId": <number>` in the text is the top-level one in the suite's bodies; the violation takes the
  // first, one nested in another member.
  const scanned = [...req.body.matchAll(/"categoryId"\s*:\s*(-?[0-9][0-9.eE+-]*)/g)];
  const raw = (s.broken.has('categoryIdScannedFirst') ? scanned[0] : scanned.at(-1))?.[1];
  const lenient = s.broken.has('inexactCategoryRounded') || s.broken.has('floatCategoryAccepted');
  const plain = raw === undefined || /^-?[0-9]+$/.test(raw);
  const inexact = !plain && !denotesInteger(raw);
  const keptAsText = inexact && s.c.inexactKeptExact;
  if (!plain && !lenient && !keptAsText && (s.c.integerNotationRefused || inexact))
    return { failure: error(s, 400, 'invalid_body', 'categoryId is not written as an integer') };
  const b = body as Record<string, unknown>;
  if (!isNewPet(s, b)) return { failure: error(s, 400, 'invalid_body', 'body is not a valid NewPet') };
  if (keptAsText) b.categoryId = new RawNumber(raw!);
  if (s.broken.has('integerNotationMisread') && raw !== undefined) b.categoryId = Number.parseInt(raw, 10);
  if (s.broken.has('categoryIdZeroMissing') && !b.categoryId)
    return { failure: error(s, 400, 'invalid_body', 'categoryId is required') };
  if (s.broken.has('categoryIdInt32') && typeof b.categoryId === 'number' && Math.abs(b.categoryId) > 2 ** 31 - 1)
    return { failure: error(s, 400, 'invalid_body', 'categoryId: out of range of int') };
  if (s.c.clientId400 && 'id' in b) return { failure: error(s, 400, 'invalid_body', 'id is assigned by the service') };
  return { pet: b };
}

/**
 * Whether a JSON number's text denotes an integer (`1e15`, `100.0`, `0.5e1`): read as digits and a power of ten,
 * the digits the power moves behind the point are all zeros.
 */
function denotesInteger(raw: string): boolean {
  const m = /^-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(raw);
  if (!m) return false;
  const fraction = m[2] ?? '';
  const shift = Number(m[3] ?? 0) - fraction.length;
  return shift >= 0 || /^0*$/.test((m[1]! + fraction).slice(shift));
}

/** Whether a name is one a server may refuse (the refuseUnusualNames choice): empty, long, or with control characters. */
function unusualName(name: unknown): boolean {
  return typeof name === 'string' && (name === '' || [...name].length > 64 || /[\p{Cc}\p{Cf}]/u.test(name));
}

/** POST /pets. */
export function createPet(s: FakeState, req: FakeRequest): FakeResult {
  if (s.broken.has('garbageOnCreate')) return { action: 'garbage' };
  if (s.broken.has('resetOnCreate')) return { action: 'reset' };
  const { pet: input, failure } = parseNewPet(s, req);
  if (failure) return failure;
  if (s.c.refuseUnusualNames && unusualName(input!.name))
    return error(s, 400, 'invalid_name', 'names must be 1 to 64 characters without control characters');
  const bug = createBugResponse(s, input!);
  if (bug) return bug;
  const clientId = input!.id;
  let id: number;
  const reused = reusedId(s, input!.name);
  if (reused !== undefined) id = reused;
  else if (s.broken.has('clientIdOverwrites') && typeof clientId === 'number' && s.pets.has(clientId)) id = clientId;
  else id = s.broken.has('sameIdTwice') ? s.nextId : s.nextId++;
  const unknown = s.c.keepUnknown
    ? Object.fromEntries(Object.entries(input!).filter(([k]) => !['id', 'name', 'categoryId', 'status'].includes(k)))
    : {};
  const pet = {
    id,
    ...unknown,
    name: nameWithBugs(s, input!.name),
    categoryId: input!.categoryId,
    ...(input!.status === undefined ? {} : { status: input!.status }),
  } as Pet;
  // The answer echoes what was sent; the store may keep something else (an enum column that lacks `sold`).
  const kept = s.broken.has('soldStoredAsAvailable') && pet.status === 'sold' ? { ...pet, status: 'available' } : pet;
  if (!s.broken.has('createdNotStored')) storeWithBugs(s, kept as Pet);
  s.listings?.clear();
  if (s.broken.has('clientIdStoredThen500') && clientId !== undefined) {
    s.storedBehind500 = (s.storedBehind500 ?? new Set()).add(id);
    return error(s, 500, 'internal', 'stored, then failed');
  }
  const shown = s.broken.has('createNoEcho') ? { ...pet, name: 'renamed' } : pet;
  return { status: s.broken.has('create200') ? 200 : 201, headers: JSON_HEADERS, body: toJson(view(s, shown)) };
}

/** GET /pets/{petId}. */
export function getPet(s: FakeState, segment: string): FakeResult {
  if (s.broken.has('hangOnGet')) return { action: 'hang' };
  const idText = parsedIdText(s, segment);
  const headers: Record<string, string> = s.c.noAdviceHeaders
    ? {}
    : {
        deprecation: '@1735689600',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
        link: '</v1/pets>; rel="successor-version"',
      };
  const bug = getBugResponse(s, idText);
  if (bug) return bug;
  if (!/^\d+$/.test(idText) || BigInt(idText) > INT64_MAX) {
    if (s.broken.has('malformedId500')) return error(s, 500, 'internal', 'boom');
    return s.c.malformedId404
      ? error(s, 404, 'not_found', 'no such animal', headers)
      : error(s, 400, 'invalid_parameter', 'petId must be an int64', headers);
  }
  const key = lookupId(s, idText);
  const first = s.broken.has('firstPetNotFound') && key === Math.min(...s.pets.keys());
  const pet = first ? undefined : s.pets.get(key);
  if (pet) return { status: 200, headers: { ...JSON_HEADERS, ...headers }, body: toJson(view(s, pet)) };
  if (s.broken.has('getUnknown200'))
    return {
      status: 200,
      headers: JSON_HEADERS,
      body: JSON.stringify({ id: Number(idText), name: 'ghost', categoryId: 1 }),
    };
  if (s.broken.has('notFoundWithoutBody')) return { status: 404, headers, body: '' };
  return error(s, 404, 'not_found', 'no such animal', headers);
}

/** For the `validationBeforeAuth` choice: the validation error a request would get, checked before the key. */
export function invalidBeforeAuth(
  s: FakeState,
  req: FakeRequest,
  path: string,
  query: URLSearchParams,
): FakeResult | undefined {
  if (path === '/v1/pets' && req.method === 'GET' && (query.has('limit') || query.has('status'))) {
    const r = listPets(s, query);
    return 'status' in r && r.status === 400 ? r : undefined;
  }
  if (path === '/v1/pets' && req.method === 'POST') return parseNewPet(s, req).failure;
  const m = /^\/v1\/pets\/([^/]+)$/.exec(path);
  if (m && !/^\d+$/.test(m[1]!)) return error(s, 400, 'invalid_parameter', 'petId must be an int64');
  return undefined;
}
