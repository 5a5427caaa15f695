/**
 * The test oracle for the mock: a model of its state (the pets it must hold)
 * and a checker that says, for one request and its response, whether the
 * response is allowed by the interface and the ARCHITECTURE.md choices, and
 * what the state must be afterwards.
 * @see docs/mock.md "Where the interface is silent: what the mock does" (the mock's side; the suite accepts the other allowed choices, docs/conformance.md)
 */
import { findInexactInteger } from '../../../mock/core/exact-numbers.ts';
import { getValidator, listOperations, type Pet } from '../../../spec/index.ts';

/** Statuses the interface documents plus those the ARCHITECTURE table allows the mock. */
export const ALLOWED_STATUSES: ReadonlySet<number> = new Set([200, 201, 204, 400, 401, 404, 405, 413, 415]);

/** A request as the oracle sees it: what was sent, with labels the generator knows. */
export interface SentRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** The Authorization value sent, or undefined. */
  authorization?: string;
  /** True when `authorization` carries one of the configured keys in a form the mock must accept. */
  authValid: boolean;
  /** The Content-Type sent, or undefined. */
  contentType?: string;
  /** True/false when the generator knows whether contentType names JSON; undefined when unknown. */
  contentTypeJson?: boolean;
  body?: Uint8Array | string;
  bodyTooLarge?: boolean;
  /** Other headers sent, as name and value. */
  extraHeaders?: [string, string][];
}

/** A response as received (header names in lower case). */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const validatePet = getValidator('Pet', { closed: true });
const validatePets = getValidator('Pets', { closed: true });
const validateError = getValidator('Error');
const validateNewPet = getValidator('NewPet');
const utf8 = new TextDecoder('utf-8', { fatal: true });
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const documented = new Map(listOperations().map((op) => [`${op.method} ${op.path}`, op.statuses]));

/** The pets the mock must hold, in ascending id order, and the seeded set a reset returns to. */
export class PetModel {
  pets: Pet[];
  /** Ids and exact JSON of every pet created through the API since the last reset. */
  readonly created = new Map<number, string>();
  constructor(readonly seeded: readonly Pet[]) {
    this.pets = seeded.map((p) => ({ ...p }));
  }
  /** Largest id held (0 when empty). */
  get maxId(): number {
    return this.pets.length === 0 ? 0 : this.pets[this.pets.length - 1]!.id;
  }
  reset(): void {
    this.pets = this.seeded.map((p) => ({ ...p }));
    this.created.clear();
  }
  /** Throws unless `actual` (the store's `all()`) holds exactly the model's pets. */
  assertSame(actual: readonly Pet[]): void {
    if (actual.length !== this.pets.length)
      throw new Error(`store holds ${actual.length} pets, model ${this.pets.length}`);
    for (let i = 0; i < actual.length; i++) {
      const a = actual[i]!;
      const m = this.pets[i]!;
      if (
        a.id !== m.id ||
        a.name !== m.name ||
        a.categoryId !== m.categoryId ||
        a.status !== m.status ||
        Object.keys(a).length !== Object.keys(m).length
      ) {
        throw new Error(`store pet #${i} ${JSON.stringify(a)} differs from model ${JSON.stringify(m)}`);
      }
    }
  }
}

type Route =
  | { kind: 'collection' }
  | { kind: 'item'; segment: string }
  | { kind: 'control'; name: string }
  | { kind: 'none' };

/** The origin form of a target: `http://host/x?y` (absolute form, RFC 9112 §3.2.2) routes as `/x?y`. */
function originForm(url: string): string {
  const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(url);
  return absolute ? absolute[1]! || '/' : url;
}

function routeOf(target: string): Route {
  const url = originForm(target);
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  // Each segment is decoded on its own: an escaped slash (`%2F`) is part of a segment, never a separator.
  let segments: string[];
  try {
    segments = raw.split('/').map(decodeURIComponent);
  } catch {
    return { kind: 'none' };
  }
  const [empty, first, second, third, ...more] = segments;
  if (empty !== '' || more.length > 0) return { kind: 'none' };
  if (first === 'v1' && second === 'pets' && third === undefined) return { kind: 'collection' };
  if (first === 'v1' && second === 'pets' && third !== undefined && third !== '')
    return { kind: 'item', segment: third };
  if (first === '__control' && third === undefined && ['reset', 'pets', 'health'].includes(second ?? ''))
    return { kind: 'control', name: second! };
  return { kind: 'none' };
}

function header(response: ReceivedResponse, name: string): string | undefined {
  const v = response.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Options of {@link checkExchange}. */
export interface CheckOptions {
  model: PetModel;
  /** The configured keys: never to appear in a response unless the request URL carried them. */
  apiKeys: readonly string[];
  /** True over a socket: HEAD responses then carry no body. */
  headStripped: boolean;
  /** True when the mock grants no origin but loopback ones (a port's default): a control request with an Origin gets 403. */
  foreignOriginsRefused?: boolean;
}

/**
 * Checks one exchange and updates the model for a 201 or a reset. Throws an
 * Error naming the first problem. Returns the created pet for a 201.
 */
export function checkExchange(
  req: SentRequest,
  res: ReceivedResponse,
  { model, apiKeys, headStripped, foreignOriginsRefused = false }: CheckOptions,
): Pet | undefined {
  const fail = (why: string): never => {
    const body =
      typeof req.body === 'string' ? req.body : req.body === undefined ? undefined : `<${req.body.length} bytes>`;
    throw new Error(
      `${why}\n  request: ${JSON.stringify({ ...req, body: body?.slice(0, 300) })}\n  response: ${res.status} ${JSON.stringify(res.headers)} ${res.body.slice(0, 500)}`,
    );
  };
  if (res.status >= 500) fail(`5xx answer`);
  const origin = req.extraHeaders?.find(([name]) => name === 'origin')?.[1];
  const control = originForm(req.url).startsWith('/__control/');
  if (foreignOriginsRefused && origin !== undefined && control && res.status !== 403)
    fail('a control request from another origin was not refused');
  if (res.status === 403) {
    // Only an origin the mock does not grant is refused: on the control endpoints, or asking for a preflight.
    const preflight =
      req.method === 'OPTIONS' && req.extraHeaders?.some(([name]) => name === 'access-control-request-method');
    if (!foreignOriginsRefused || origin === undefined || !(control || preflight)) fail('403 without a foreign Origin');
    if (res.body !== '' && (JSON.parse(res.body) as { code?: string }).code !== 'origin_not_allowed')
      fail('403 not origin_not_allowed');
    return undefined;
  }
  if (!ALLOWED_STATUSES.has(res.status))
    fail(`status ${res.status} is neither documented nor in the ARCHITECTURE table`);
  if (res.status === 204 && req.method !== 'OPTIONS') fail('204 outside OPTIONS');
  for (const key of apiKeys) {
    if (!req.url.includes(key) && (res.body.includes(key) || JSON.stringify(res.headers).includes(key)))
      fail('response carries an API key');
  }
  const isHead = req.method === 'HEAD';
  const bodyShown = !(isHead && headStripped);
  if (isHead && headStripped && res.body !== '') fail('HEAD answered with a body');
  let json: unknown;
  if (res.body !== '') {
    if (!/^application\/json\b/.test(header(res, 'content-type') ?? '')) fail('a body without application/json');
    try {
      json = JSON.parse(res.body);
    } catch {
      fail('body is not JSON');
    }
  }
  if (res.status >= 400 && bodyShown) {
    if (!validateError(json)) fail(`Error body invalid: ${JSON.stringify(validateError.errors)}`);
    if ((json as { status: number }).status !== res.status) fail('Error.status differs from the HTTP status');
  }
  const route = routeOf(req.url);
  if (route.kind === 'none') {
    if (res.status !== 404) fail('unknown route not answered 404');
    return undefined;
  }
  const allow =
    route.kind === 'collection'
      ? ['GET', 'HEAD', 'POST']
      : route.kind === 'item'
        ? ['GET', 'HEAD']
        : route.name === 'reset'
          ? ['POST']
          : route.name === 'pets'
            ? ['GET', 'HEAD', 'PUT']
            : ['GET', 'HEAD'];
  if (req.method === 'OPTIONS') {
    if (res.status !== 204) fail('OPTIONS not answered 204');
    if (!header(res, 'allow')) fail('OPTIONS without Allow');
    return undefined;
  }
  if (!allow.includes(req.method)) {
    if (res.status !== 405 || !header(res, 'allow')) fail('wrong method not answered 405 with Allow');
    return undefined;
  }
  if (route.kind === 'control') {
    if (req.method === 'PUT') return checkReplace(req, res, model, fail);
    if (res.status !== 200) fail('control endpoint not 200');
    if (route.name === 'reset') model.reset();
    return undefined;
  }
  const path = route.kind === 'collection' ? '/pets' : '/pets/{petId}';
  const op = req.method === 'HEAD' ? 'GET' : req.method;
  const statuses = documented.get(`${op} ${path}`) ?? [];
  if (!req.authValid) {
    if (res.status !== 401 || !/^bearer/i.test(header(res, 'www-authenticate') ?? ''))
      fail('bad key not answered 401 with WWW-Authenticate');
    if (!statuses.includes(401)) fail('401 not documented for this operation');
    return undefined;
  }
  if (res.status === 401) fail('a valid key refused');
  if (route.kind === 'item') return checkGet(route.segment, res, json, bodyShown, model, fail);
  if (req.method === 'POST') return checkCreate(req, res, json, model, fail);
  return checkList(req.url, res, json, bodyShown, model, fail);
}

function checkGet(
  segment: string,
  res: ReceivedResponse,
  json: unknown,
  bodyShown: boolean,
  model: PetModel,
  fail: (why: string) => never,
): undefined {
  const integer = /^-?[0-9]+$/.test(segment) ? BigInt(segment) : undefined;
  const inRange = integer !== undefined && integer >= INT64_MIN && integer <= INT64_MAX;
  const found = inRange ? model.pets.find((p) => BigInt(p.id) === integer) : undefined;
  const canonical = inRange && String(integer) === segment;
  if (found) {
    if (res.status === 400 && !canonical) return undefined;
    if (res.status !== 200) fail(`existing pet ${found.id} not answered 200`);
    if (!header(res, 'sunset') || !header(res, 'deprecation')) fail('getPet 200 without Sunset/Deprecation');
    if (bodyShown) {
      if (!validatePet(json)) fail(`Pet body invalid: ${JSON.stringify(validatePet.errors)}`);
      if (JSON.stringify(json) !== JSON.stringify(found))
        fail(`getPet answered ${res.body}, model holds ${JSON.stringify(found)}`);
    }
    return undefined;
  }
  if (canonical ? res.status !== 404 : res.status !== 404 && res.status !== 400)
    fail(`absent or malformed petId answered ${res.status}`);
  return undefined;
}

function checkList(
  target: string,
  res: ReceivedResponse,
  json: unknown,
  bodyShown: boolean,
  model: PetModel,
  fail: (why: string) => never,
): undefined {
  const url = originForm(target);
  const q = url.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  const limits = params.getAll('limit');
  const statuses = params.getAll('status');
  const cleanLimit = limits.length === 0 || (limits.length === 1 && /^(100|[1-9][0-9]?)$/.test(limits[0]!));
  const cleanStatus =
    statuses.length === 0 || (statuses.length === 1 && ['available', 'pending', 'sold'].includes(statuses[0]!));
  if (res.status === 400) {
    if (cleanLimit && cleanStatus) fail('a clean listPets query refused');
    return undefined;
  }
  if (res.status !== 200) fail(`listPets answered ${res.status}`);
  if (!cleanStatus) fail('status outside the enumeration accepted (the mock chose 400)');
  const limit = limits.length === 0 ? 20 : /^[0-9]+$/.test(limits[0]!) ? Number(limits[0]) : NaN;
  if (!(limit >= 1 && limit <= 100)) fail('limit out of range accepted (the mock chose 400)');
  if (!bodyShown) return undefined;
  if (!validatePets(json)) fail(`Pets body invalid: ${JSON.stringify(validatePets.errors)}`);
  const want = model.pets.filter((p) => statuses.length === 0 || p.status === statuses[0]).slice(0, limit);
  if (JSON.stringify(json) !== JSON.stringify(want)) fail(`listPets differs from the model (want ${want.length} pets)`);
  return undefined;
}

/** Whether a Content-Type names JSON: application/json or application/<name>+json (RFC 6839). */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(type);
}

/** The NewPet a request body carries, when the mock must accept it; undefined otherwise. */
/**
 * Whether the request declares a content coding other than none: Content-Encoding is a list (RFC 9110 §8.4), so an
 * empty one, or one naming only `identity`, leaves the body as sent.
 */
function contentCoded(req: SentRequest): boolean {
  return (req.extraHeaders ?? [])
    .filter(([n]) => n === 'content-encoding')
    .flatMap(([, v]) => v.split(','))
    .some((c) => !['', 'identity'].includes(c.trim().toLowerCase()));
}

function acceptableNewPet(req: SentRequest): Record<string, unknown> | undefined {
  if (req.bodyTooLarge || !isJson(req.contentType) || req.body === undefined || req.body.length === 0) return undefined;
  let text: string;
  try {
    text = typeof req.body === 'string' ? req.body : utf8.decode(req.body);
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!validateNewPet(value)) return undefined;
  const pet = value as Record<string, unknown>;
  // A categoryId whose text is not exactly a safe integer (1e-400, 1.0000000000000001) is refused, not rounded.
  // The text check is the mock's own (unit-tested on its own cases): JSON.parse cannot show the text.
  if (findInexactInteger(text, 1, (path) => path.length === 1 && path[0] === 'categoryId')) return undefined;
  return Number.isSafeInteger(pet.categoryId) ? pet : undefined;
}

function checkCreate(
  req: SentRequest,
  res: ReceivedResponse,
  json: unknown,
  model: PetModel,
  fail: (why: string) => never,
): Pet | undefined {
  const expected = acceptableNewPet(req);
  const empty = req.body === undefined || req.body.length === 0;
  if (req.bodyTooLarge) {
    if (res.status !== 413) fail('over-limit body not answered 413');
    return undefined;
  }
  // A compressed body is refused, unless there is no body to refuse.
  if (contentCoded(req) && !(empty && req.contentType === undefined)) {
    if (res.status !== 415) fail('a body with a Content-Encoding not answered 415');
    return undefined;
  }
  if (!expected) {
    if (res.status === 201) fail('an invalid NewPet was created');
    const json = req.contentTypeJson ?? (isJson(req.contentType) || undefined);
    if (json === true && res.status !== 400) fail('invalid JSON body not answered 400');
    if (json === false && !empty && res.status !== 415) fail('non-JSON media type not answered 415');
    if (res.status !== 400 && res.status !== 415) fail(`refused create answered ${res.status}`);
    return undefined;
  }
  if (res.status === 415 && req.contentTypeJson === undefined) return undefined;
  if (res.status !== 201) fail('a valid NewPet was not created');
  if (!validatePet(json)) fail(`created Pet invalid: ${JSON.stringify(validatePet.errors)}`);
  const pet = json as Pet;
  if (pet.id <= model.maxId || !Number.isSafeInteger(pet.id))
    fail(`new id ${pet.id} not above every id held (${model.maxId})`);
  // `!==` treats a -0 categoryId (sent as -0, returned as 0) as equal, as it should.
  if (pet.name !== expected.name || pet.categoryId !== expected.categoryId || pet.status !== expected.status)
    fail('created Pet differs from the NewPet sent');
  if (header(res, 'location') !== `/v1/pets/${pet.id}`) fail('201 without the right Location');
  model.pets.push(pet);
  model.created.set(pet.id, res.body);
  return pet;
}

/**
 * `PUT /__control/pets`: a valid array of Pets sent as JSON replaces the model; anything else is a 400 or 413 (or a
 * 415 when the body is not declared JSON, or is sent with a content coding) and changes nothing.
 */
function checkReplace(
  req: SentRequest,
  res: ReceivedResponse,
  model: PetModel,
  fail: (why: string) => never,
): undefined {
  if (res.status === 400 || res.status === 413) return undefined;
  const json = req.contentTypeJson ?? isJson(req.contentType);
  if (res.status === 415) {
    if (json === true && !contentCoded(req)) fail('PUT /__control/pets refused a JSON media type');
    return undefined;
  }
  if (contentCoded(req)) fail(`PUT /__control/pets took a body with a Content-Encoding (answered ${res.status})`);
  if (!json) fail(`PUT /__control/pets took a body declared ${JSON.stringify(req.contentType)}, not JSON`);
  if (res.status !== 200) fail(`PUT /__control/pets answered ${res.status}`);
  const text = typeof req.body === 'string' ? req.body : utf8.decode(req.body ?? new Uint8Array());
  const pets = (JSON.parse(text) as Pet[]).map((p) => {
    const pet: Pet = { id: p.id, name: p.name, categoryId: p.categoryId };
    if (p.status !== undefined) pet.status = p.status;
    return pet;
  });
  model.pets = pets.sort((a, b) => a.id - b.id);
  model.created.clear();
  return undefined;
}
