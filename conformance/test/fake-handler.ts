/**
 * The logic of the test-only fake Petstore: correct by default (it follows the
 * contract and every piece of advice), with switches that each break one
 * documented rule (`Violation`) or make another choice the interface allows
 * (`FakeChoices`). Pure: plain request in, plain response or action out; the
 * operations themselves are in fake-operations.ts.
 */
import { type Pet, petStatuses } from '../../spec/index.ts';
import { bugQuery, queryParserResponse, routerPage } from './fake-decoders.ts';
import {
  error,
  type FakeChoices,
  type FakeRequest,
  type FakeResult,
  type FakeState,
  type GeneratedBug,
  type Violation,
} from './fake-model.ts';
import { createPet, getPet, invalidBeforeAuth, listPets } from './fake-operations.ts';

export type { FakeChoices, FakeResult, GeneratedBug, Violation } from './fake-model.ts';

/** Options of {@link createFakeHandler}. */
interface FakeHandlerOptions {
  apiKey: string;
  count: number;
  violations: readonly Violation[];
  choices: FakeChoices;
  bugs?: readonly GeneratedBug[];
}

/** The fake's state and its request handler. */
interface FakeHandler {
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
  if (s.broken.has('schemeSkipped')) return value?.slice(7) === s.apiKey;
  const m = value ? /^(\S+)(?: +(.*))?$/.exec(value) : null;
  if (!m) return false;
  const scheme = m[1]!;
  const token = (m[2] ?? '').trim();
  if (scheme.toLowerCase() === 'basic') return s.broken.has('basicAccepted');
  if (s.broken.has('schemeOptional') && m[2] === undefined && scheme === s.apiKey) return true;
  if (s.broken.has('lowercaseSchemeUnchecked') && scheme === 'bearer') return true;
  const isBearer = s.broken.has('schemeSuffixMatch')
    ? scheme.toLowerCase().endsWith('bearer')
    : s.c.caseSensitiveScheme
      ? scheme === 'Bearer'
      : scheme.toLowerCase() === 'bearer';
  if (!isBearer) return false;
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
  const noChallenge = s.c.noAdviceHeaders || (s.broken.has('noChallengeForWrongKey') && header !== undefined);
  const challenge: Record<string, string> = noChallenge ? {} : { 'www-authenticate': 'Bearer realm="fake"' };
  return error(s, 401, 'unauthorized', 'API key missing or invalid', challenge);
}

function echoAuthorization(s: FakeState, req: FakeRequest, result: FakeResult): FakeResult {
  if (!s.c.echoAuthorization || 'action' in result) return result;
  const echo = String(req.headers.authorization ?? '');
  const body = result.body.startsWith('{') ? `{"echo":${JSON.stringify(echo)},${result.body.slice(1)}` : result.body;
  return { ...result, headers: { ...result.headers, 'x-echo-authorization': echo }, body };
}

function route(s: FakeState, req: FakeRequest): FakeResult {
  if (s.c.absoluteFormRefused && !req.url.startsWith('/')) return error(s, 404, 'not_found', 'no such route');
  const url = new URL(req.url, 'http://fake.invalid');
  if (s.c.validationBeforeAuth) {
    const early = invalidBeforeAuth(s, req, url.pathname, url.searchParams);
    if (early) return early;
  }
  const page = routerPage(s, req, url.pathname);
  if (page) return page;
  if (s.c.routerDigitsOnly && req.method === 'GET' && /^\/v1\/pets\/[^/]*\D[^/]*$/.test(url.pathname))
    return error(s, 404, 'not_found', 'no such route');
  // Broken: the animal is looked up before the key is checked, so a wrong key learns which ids exist (404 or 401).
  const looked = s.broken.has('lookupBeforeAuth') && req.method === 'GET' && /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
  if (looked && !(/^\d+$/.test(looked[1]!) && s.pets.has(Number(looked[1]))))
    return error(s, 404, 'not_found', 'no such pet');
  const denied = unauthorized(s, req);
  if (denied) return denied;
  if (url.pathname === '/v1/pets' && req.method === 'GET')
    return (
      queryParserResponse(s, url.search.slice(1)) ?? listPets(s, bugQuery(s, url.search.slice(1)) ?? url.searchParams)
    );
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
