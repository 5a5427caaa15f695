/**
 * The one way to build a mock, whatever carries its requests: createMock
 * checks the options once, seeds the store, wraps the handler in its layers
 * (CORS, control endpoints, journal, coverage, rate limit, scenarios, Prefer,
 * chaos, latency) and builds the {@link PetstoreMock} its user holds; the
 * control endpoints act on that same object. The default seed's pets ship as
 * data and are served at once; another seed or a larger count loads faker by a
 * dynamic import (and an adapter may load pets itself, as `petsFrom` does):
 * until they are made, requests wait and `ready` is pending.
 */
import { listOperations, loadProfile, type Pet, sunsetOf } from '../../spec/index.ts';
import { API_PATH } from './adapter.ts';
import { controlLayer } from './control.ts';
import { corsLayer, corsPolicy } from './cors.ts';
import { type Coverage, createCoverage } from './coverage.ts';
import { DEFAULT_SEED, loadSeededPets, shippedPets } from './default-pets.ts';
import { badOption, PetstoreMockError } from './errors.ts';
import { createHandler } from './handler.ts';
import { createJournal, type Journal, type JournalFilter, journalLayer } from './journal.ts';
import {
  type Answer,
  type ContextMaker,
  chainOf,
  compose,
  contextMaker,
  type Fetch,
  type Layer,
  type Next,
  type RequestContext,
} from './layers.ts';
import { storeFailure } from './operations.ts';
import {
  asOfDate,
  checkChaos,
  checkJournalBytes,
  checkJournalSize,
  checkKnownOptions,
  checkLatency,
  checkMockOptions,
  checkRateLimit,
  checkSessions,
  checkStoreBytes,
  type Latency,
} from './options.ts';
import { overridesLayer } from './overrides.ts';
import { buildPact } from './pact/document.ts';
import { applyProviderState } from './pact/provider-states.ts';
import { createPactRecorder, type PactRecorder } from './pact/recorder.ts';
import type { MockCore, PetstoreMock, PetsView } from './petstore-mock.ts';
import { seededRandom } from './random.ts';
import { rateLimitLayer } from './rate-limit.ts';
import { validatePets } from './replace-pets.ts';
import { type ApiRequest, type ApiResponse, ErrorCode } from './responses.ts';
import { createScenarioStore, type ScenarioStore } from './scenarios.ts';
import {
  createSessions,
  type SessionCore,
  SessionError,
  type SessionOptions,
  type SessionRoutes,
  type Sessions,
  sessionDivert,
} from './sessions.ts';
import { createPetStore, type Later, type PetStore, StoreFullError } from './store.ts';

/** The development key used when no key is configured. Printed at start; never use it outside a local mock. */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/** Options for {@link createMock}. */
export interface MockOptions {
  /** Faker seed; the same seed gives the same pets (and the same latency and chaos draws). */
  seed?: number;
  /** Number of pets to seed (0 to 1,000,000; default 50). */
  count?: number;
  /** Start from these pets instead of faker (`seed` and `count` are then ignored); checked as {@link Mock.replacePets} checks them. */
  pets?: readonly Pet[];
  /** Accepted bearer keys (default: the development key). */
  apiKeys?: readonly string[];
  /** CORS headers and preflights (default on). */
  cors?: boolean;
  /**
   * Origins CORS grants besides loopback ones (`http://host:port`), or `['*']` for any. The control endpoints
   * take only the mock's own origin and these. Default: `['*']` in process (MSW, the dispatcher), none on a port.
   */
  corsOrigins?: readonly string[];
  /** Delay on every API answer: ms, or `{ min, max }` drawn from the seed (at most 60000). */
  latency?: Latency;
  /** API requests per second per key; beyond it, 429 with Retry-After (default: no limit). */
  rateLimit?: number;
  /** Share of API requests, 0 to 1, answered with a random 429, 500, 502, 503 or 504 (seeded). */
  chaos?: number;
  /** API requests the journal keeps, oldest dropped first (default 1000; 0 keeps none). */
  journalSize?: number;
  /** Bytes the journal keeps (bodies cut at 64 KiB), oldest dropped first (default 8 MiB; at most 1 GiB). */
  journalBytes?: number;
  /**
   * Bytes the pets may take (their JSON text plus 48 per pet; default 256 MiB, at most 64 GiB): a create beyond it
   * is a 507 `store_full` Error, and pets (seeded, given or replaced) beyond it are refused.
   */
  storeBytes?: number;
  /**
   * Keep the pets in this store instead of a new one in memory (the node adapter opens a database one from
   * `store`): on a database, pets, ids and the byte budget are every mock's on it; scenarios, the journal and
   * coverage stay this mock's own. An empty store is seeded once; one holding pets is served as it is.
   */
  sharedStore?: PetStore;
  /** The rate limit's clock in ms (default Date.now), for tests. */
  now?: () => number;
  /**
   * The key the control endpoints (`/__control/...`: reset, pets, scenarios, the journal, coverage) require, as
   * `Authorization: Bearer <controlKey>`, distinct from the API keys (default: none, the controls are open, as
   * on loopback they may be; `GET /__control/health` stays open for load balancers).
   */
  controlKey?: string;
  /**
   * Serve the interface as it stands on this date (a Date or `2030-12-05`; default: today): from an operation's
   * sunset on (getPet's, 5 December 2030), it is removed and answers as an unknown route does (404 Error).
   */
  asOf?: Date | string;
  /**
   * Sessions, mocks of their own on the same port ({@link PetstoreMock.session}, `POST /__control/sessions`): at most
   * `max` live (default 100), each ended after `idleMs` without a request (default 15 minutes; 0: never). Their pets
   * share `storeBytes`: each may take `storeBytes / max`.
   */
  sessions?: SessionOptions;
}

/** Every name of {@link MockOptions}: a key of the options outside it is a typo, refused (the type keeps the two equal). */
const MOCK_OPTION_NAMES: Record<keyof MockOptions, true> = {
  seed: true,
  count: true,
  pets: true,
  apiKeys: true,
  cors: true,
  corsOrigins: true,
  latency: true,
  rateLimit: true,
  chaos: true,
  journalSize: true,
  journalBytes: true,
  storeBytes: true,
  sharedStore: true,
  now: true,
  asOf: true,
  controlKey: true,
  sessions: true,
};

/** What an adapter tells {@link createMock}: where it mounts the mock, how its user reaches and closes it. */
export interface MockAdapter {
  /** The adapter's own option names, taken out of the options before: an unknown name's error may suggest one. */
  optionNames?: readonly string[];
  /** The path before `/v1` (`/api` for a base URL ending in `/api/v1`): the URLs the mock writes start with it. */
  prefix?: string;
  /** The base URL the user's `url` reads (ends in `/v1`); asked each time, so a port may set it once it listens. */
  url?: () => string;
  /** What the user's `close()` does (default: nothing to close). */
  close?: () => Promise<void>;
  /** The origins CORS grants when the options name none: every one in process (default), none on a port. */
  corsOrigins?: readonly string[];
  /** Pets the adapter loads itself (`petsFrom`), instead of the seed's; `ready` waits for them and fails with them. */
  loadPets?: () => Promise<readonly Pet[]>;
}

/** What a session's mock is made with besides its holder's options and adapter (createMock's own use). */
interface SessionOf {
  name: string;
  /** The base its URL form is reached under (`/sessions/{name}/v1`, after any prefix): its `Location` and `Link` say it. */
  urlBase: string;
  /** The holder's CORS layer (none when off): one for all, so a session answers as its holder does. */
  cors: readonly Layer[];
  /** Makes a session request's context: one for all the holder's sessions, its memo of query texts shared. */
  contextOf: ContextMaker;
}

/**
 * A session's two ways in from its holder, each the session's whole pipeline (its own CORS answer first) from the one
 * context it makes: by header (the answers' URLs under the plain base) and by URL (the path after the session's
 * segment, the answers' URLs written under that segment by a handler of its own, never rewritten after).
 */
function sessionRoutes(
  layers: readonly Layer[],
  handler: Next,
  within: SessionOf,
  parts: Omit<Parameters<typeof createHandler>[0], 'basePath'> & { coverage: Coverage },
): PropertyDescriptorMap {
  const { coverage, ...handlerParts } = parts;
  const { contextOf, urlBase } = within;
  const byHeader = chainOf(layers, handler);
  const byUrl = chainOf(layers, createHandler({ ...handlerParts, basePath: urlBase }));
  const routes: SessionRoutes = {
    answerByHeader: (request, path, query) => byHeader(contextOf(request, path, query)),
    answerByUrl: (request, path, query) => byUrl(contextOf(request, path, query)),
    coverageFeed: coverage.feed,
  };
  return {
    answerByHeader: { value: routes.answerByHeader },
    answerByUrl: { value: routes.answerByUrl },
    coverageFeed: { value: routes.coverageFeed },
  };
}

/** Answers a refused session request (an unknown or ended one, a bad name) through the holder's CORS layer alone. */
function refusal(cors: readonly Layer[]) {
  const contextOf = contextMaker(API_PATH);
  return (request: ApiRequest, path: string, query: string, response: ApiResponse): Answer =>
    chainOf(cors, () => response)(contextOf(request, path, query));
}

/** Builds a mock: its user's {@link PetstoreMock}, with what its adapter calls. */
export function createMock(options: MockOptions = {}, adapter: MockAdapter = {}, within?: SessionOf): MockCore {
  const checked = checkOptions(options, adapter);
  // Where the API is mounted (`/api/v1`): the URLs the mock writes start with it; the core routes under API_PATH.
  const basePath = `${adapter.prefix ?? ''}${API_PATH}`;
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? [...options.apiKeys] : [DEFAULT_API_KEY];
  const { store, ready, isReady, startingPets } = openPets(options, adapter, checked.storeBytes);
  const scenarios = createScenarioStore();
  // The control key is a secret like the API keys: hidden wherever they are.
  const secrets = options.controlKey === undefined ? apiKeys : [...apiKeys, options.controlKey];
  const journal = createJournal({ capacity: options.journalSize, maxBytes: options.journalBytes, keys: secrets });
  const removed = removedOperations(options.asOf);
  // A holder adds its sessions' coverage to its own when it reports: each request is counted once, where it was answered.
  const coverage = createCoverage(
    within === undefined
      ? { removed, feeds: () => [...(sessions?.live() ?? [])].map((s) => s.coverageFeed) }
      : { removed, held: true },
  );
  const recorder = createPactRecorder(removed);

  const mock: PetstoreMock = {
    get url() {
      return adapter.url?.() ?? basePath;
    },
    apiKeys,
    pets: petsView(store),
    scenarios: { add: scenarios.add, remove: scenarios.remove, clear: scenarios.clear, list: scenarios.list },
    requests: (filter) => journal.list(checkFilter(filter)),
    clearRequests: () => journal.clear(),
    replacePets: (pets) => {
      const valid = validatePets(pets);
      return whenStored(
        () => store.replace(valid),
        (error) => storeFullError(error),
      );
    },
    reset: () => {
      scenarios.clear();
      journal.clear();
      return store.reset();
    },
    ready,
    coverage: coverage.report,
    clearCoverage: coverage.clear,
    pact: (pactOptions) => buildPact(recorder, pactOptions, apiKeys),
    clearPact: () => recorder.clear(),
    setProviderState: (change) => applyProviderState(mock, change),
    session: (name) => {
      if (!sessions)
        throw new SessionError(
          400,
          ErrorCode.invalidSessionName,
          'sessions do not nest: call session() on the mock, not on a session',
        );
      return sessions.create(name);
    },
    close: adapter.close ?? (async () => {}),
  };
  if (within) Object.defineProperty(mock, 'name', { value: within.name, enumerable: true });
  const cors = within?.cors ?? (options.cors === false ? [] : [corsLayer(checked.cors)]);
  const sessions =
    within === undefined
      ? holdSessions(options, adapter, {
          mock,
          store,
          coverage,
          cors,
          storeBytes: checked.storeBytes,
          isReady,
          startingPets,
        })
      : undefined;

  const layers = [
    ...cors,
    ...layersOf(options, checked, { mock, store, scenarios, journal, coverage, recorder, basePath, sessions }),
  ];
  const handler = createHandler({ store, apiKeys, basePath, removed });
  const layered = compose(layers, handler, API_PATH, sessions && sessionDivert(sessions, refusal(cors)));
  const fetch: Fetch = (request) => (isReady() ? layered(request) : ready.then(() => layered(request)));
  // The adapter's hook is not enumerable: the object reads as the controls it is.
  Object.defineProperties(mock, { fetch: { value: fetch } });
  if (within)
    Object.defineProperties(mock, sessionRoutes(layers, handler, within, { store, apiKeys, removed, coverage }));
  return mock as MockCore;
}

/** The options as createMock uses them, each checked once: a PetstoreMockError names the first bad one. */
function checkOptions(options: MockOptions, adapter: MockAdapter) {
  checkMockOptions(options);
  checkKnownOptions(options, Object.keys(MOCK_OPTION_NAMES), adapter.optionNames);
  const latency = checkLatency(options.latency);
  checkRateLimit(options.rateLimit);
  checkChaos(options.chaos);
  checkJournalSize(options.journalSize);
  checkJournalBytes(options.journalBytes);
  const storeBytes = checkStoreBytes(options.storeBytes);
  const sessions = checkSessions(options.sessions);
  const cors = corsPolicy(options.corsOrigins ?? adapter.corsOrigins ?? ['*']);
  return { latency, storeBytes, sessions, cors, seed: options.seed ?? DEFAULT_SEED };
}

/**
 * The store (the database one given, else one in memory) and its opening: the pets to start with are the given
 * ones, else the adapter's, else the seed's. Pets that ship as data are held at once; others load (faker, a file)
 * while `ready` is pending, and `isReady()` says when they are in.
 */
function openPets(options: MockOptions, adapter: MockAdapter, storeBytes: number) {
  const seeding = { seed: options.seed, count: options.count };
  // Given pets are checked as replacePets checks them: a bad one is named, not a TypeError from deep inside.
  const given = options.pets === undefined ? undefined : validatePets(options.pets);
  const now = given ?? (adapter.loadPets ? undefined : shippedPets(seeding));
  const store: PetStore = options.sharedStore ?? withinBudget(() => createPetStore(now, storeBytes), 'storeBytes');
  let seeded = false;
  // What a session starts from: the pets this mock started from (never those replaced since).
  let starting: readonly Pet[] | undefined = now;
  const load = () => {
    const loading = adapter.loadPets?.() ?? loadSeededPets(seeding);
    return loading instanceof Promise ? loading.then((pets) => (starting = pets)) : (starting = loading);
  };
  let opening: Later<number>;
  try {
    opening = store.open(() => now ?? load());
  } catch (error) {
    throw budgetError(error, 'storeBytes');
  }
  const ready: Promise<void> =
    opening instanceof Promise
      ? opening.then(
          () => {
            seeded = true;
          },
          (error) => {
            throw budgetError(error, 'storeBytes');
          },
        )
      : Promise.resolve();
  if (!(opening instanceof Promise)) seeded = true;
  // Whoever waits on `ready` sees a failure; nobody waiting is no unhandled rejection.
  ready.catch(() => {});
  return { store, ready, isReady: () => seeded, startingPets: () => starting };
}

/** The in-process view of the pets, on any store: each read answers now in memory, later from a database. */
function petsView(store: PetStore): PetsView {
  const petOf = (json: string | undefined) => (json === undefined ? undefined : Object.freeze(JSON.parse(json) as Pet));
  const petsOf = (json: string) => (JSON.parse(json) as Pet[]).map((pet) => Object.freeze(pet));
  return {
    get size() {
      return store.size;
    },
    get: (id) => {
      const json = store.getJson(id);
      return json instanceof Promise ? json.then(petOf) : petOf(json);
    },
    all: () => {
      const json = store.allJson();
      return json instanceof Promise ? json.then(petsOf) : petsOf(json);
    },
  };
}

/** What the layers act on besides the options. */
interface LayerParts {
  mock: PetstoreMock;
  store: PetStore;
  scenarios: ScenarioStore;
  journal: Journal;
  coverage: Coverage;
  recorder: PactRecorder;
  basePath: string;
  /** The mock's sessions; none in a session. */
  sessions: Sessions | undefined;
}

/** The layers around the handler inside CORS, outermost first: each one the options switch on. */
function layersOf(options: MockOptions, checked: ReturnType<typeof checkOptions>, parts: LayerParts): Layer[] {
  const { mock, store, scenarios, journal, coverage, recorder, basePath, sessions } = parts;
  const failed = (error: unknown) => storeFailure(error, store.where);
  // The served profile names this mock's own base path, relative to where it is read from (any host, any port),
  // not the default address the profile document carries. Made when first read: a thousand sessions need not
  // hold a thousand copies.
  let profile: string | undefined;
  const profileText = () =>
    (profile ??= JSON.stringify({
      ...loadProfile(),
      servers: [{ url: basePath, description: 'This mock, where this document was read from.' }],
    }));
  const { latency, seed } = checked;
  const latencyRandom = seededRandom(seed);
  const draw = () => latency.min + Math.floor(latencyRandom() * (latency.max - latency.min + 1));
  return [
    controlLayer(mock, {
      petsJson: () => store.allJson(),
      journal,
      profile: profileText,
      ...(sessions ? { sessions } : {}),
      storeFailure: failed,
      ...(options.controlKey === undefined ? {} : { controlKey: options.controlKey }),
    }),
    // The journal, coverage and the Pact recorder watch every API answer as sent, from one layer: one step per request.
    journalLayer(journal, observer(coverage.record, recorder.record)),
    ...(options.rateLimit === undefined
      ? []
      : [
          rateLimitLayer({
            perSecond: options.rateLimit,
            now: options.now,
            // On a database store the buckets are every mock's: a key's limit holds across them.
            counter: store.countRequest && {
              count: (bucket, window) => store.countRequest!(bucket, window),
              failed,
            },
          }),
        ]),
    overridesLayer({
      scenarios,
      ...(options.chaos ? { chaos: { rate: options.chaos, random: seededRandom(seed ^ 0x5eed) } } : {}),
      latency: latency.max === 0 ? () => 0 : draw,
    }),
  ];
}

/**
 * Coverage and the Pact recorder as one observer. Their `record` functions are taken once, here: an object with a
 * getter (the recorder's `overflow`) is a dictionary to V8, and looking a method up in it on every request costs a
 * hash probe. Neither reads `this`.
 */
function observer(count: Coverage['record'], keep: PactRecorder['record']) {
  return (context: RequestContext, response: ApiResponse): void => {
    count(context, response);
    keep(context, response);
  };
}

/** What {@link holdSessions} makes sessions from. */
interface SessionParts {
  mock: PetstoreMock;
  store: PetStore;
  coverage: Coverage;
  cors: readonly Layer[];
  storeBytes: number;
  isReady: () => boolean;
  startingPets: () => readonly Pet[] | undefined;
}

/**
 * The sessions of a mock: each made by createMock with the same options and adapter, starting from the same pets,
 * its store a share of the budget, its coverage kept in the holder's once it ends; none on a database store, whose pets every mock
 * on it shares.
 */
function holdSessions(options: MockOptions, adapter: MockAdapter, parts: SessionParts): Sessions {
  const { mock, store, coverage, cors, storeBytes, isReady, startingPets } = parts;
  const limits = checkSessions(options.sessions);
  const share = Math.floor(storeBytes / limits.max);
  const prefix = adapter.prefix ?? '';
  const contextOf = contextMaker(API_PATH);
  return createSessions(
    {
      now: options.now ?? Date.now,
      ended: (session) => coverage.absorb(session.coverageFeed),
      unsupported:
        options.sharedStore &&
        `sessions need the memory store: on ${store.where} every mock shares the pets, so a session's would not be its own; start a mock without a store for sessions`,
      make: (name, end) => {
        const pets = startingPets();
        if (!isReady() || pets === undefined)
          throw new SessionError(
            409,
            ErrorCode.sessionsUnsupported,
            'the mock is still loading its pets: await mock.ready first',
          );
        const base = () => mock.url.slice(0, -API_PATH.length);
        try {
          return createMock(
            // A request in a session takes the session's pipeline alone, the holder's CORS layer first in it.
            { ...options, pets, storeBytes: share },
            {
              ...adapter,
              loadPets: undefined,
              prefix,
              url: () => `${base()}/sessions/${name}${API_PATH}`,
              close: end,
            },
            { name, urlBase: `${prefix}/sessions/${name}${API_PATH}`, cors, contextOf },
          ) as SessionCore;
        } catch (error) {
          if (error instanceof PetstoreMockError && error.option === 'storeBytes')
            throw new SessionError(
              507,
              ErrorCode.storeFull,
              `a session's pets take more than its share of the store's budget, storeBytes / sessions.max = ${share} bytes: raise storeBytes or lower sessions.max`,
            );
          throw error;
        }
      },
    },
    limits,
  );
}

/** A StoreFullError as a PetstoreMockError: about the option `option` (seeded pets beyond the budget are a bad start). */
function budgetError(error: unknown, option: string): unknown {
  if (!(error instanceof StoreFullError)) return error;
  return badOption(
    option,
    `is ${error.budget} bytes: the pets to start with take more than that (at least ${error.needed}); raise it`,
  );
}

/** `run`'s result, now or later; a StoreFullError from it is a PetstoreMockError (`PETSTORE_MOCK_STORE_FULL`). */
function whenStored<T>(run: () => Later<T>, map: (error: unknown) => unknown): Later<T> {
  let result: Later<T>;
  try {
    result = run();
  } catch (error) {
    throw map(error);
  }
  return result instanceof Promise
    ? result.catch((error) => {
        throw map(error);
      })
    : result;
}

/** Pets replaced beyond the budget: `PETSTORE_MOCK_STORE_FULL`. */
function storeFullError(error: unknown): unknown {
  return error instanceof StoreFullError ? new PetstoreMockError('PETSTORE_MOCK_STORE_FULL', error.message) : error;
}

/** `run`'s result; a StoreFullError from it is about the option `option`. */
function withinBudget<T>(run: () => T, option: string): T {
  try {
    return run();
  } catch (error) {
    throw budgetError(error, option);
  }
}

/** The operations whose sunset has come by `asOf`; undefined when none has, so that no request asks a set. */
function removedOperations(asOf: MockOptions['asOf']): ReadonlySet<string> | undefined {
  if (asOf === undefined) return undefined;
  const date = asOfDate(asOf);
  const removed = new Set(
    listOperations()
      .map((op) => op.operationId)
      .filter((id) => {
        const sunset = sunsetOf(id);
        return sunset !== undefined && date.getTime() >= sunset.getTime();
      }),
  );
  return removed.size === 0 ? undefined : removed;
}

/** `filter` when it is one {@link PetstoreMock.requests} can use; a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) otherwise. */
function checkFilter(filter: JournalFilter | undefined): JournalFilter | undefined {
  if (filter === undefined) return filter;
  const whole = (n: unknown, min: number) => n === undefined || (Number.isSafeInteger(n) && (n as number) >= min);
  const ok =
    typeof filter === 'object' &&
    filter !== null &&
    (filter.method === undefined || typeof filter.method === 'string') &&
    (filter.path === undefined || typeof filter.path === 'string') &&
    whole(filter.since, 0) &&
    whole(filter.limit, 1);
  if (!ok)
    throw badOption(
      'requests(filter)',
      ': filter must be { method?: string, path?: string, since?: integer ≥ 0, limit?: integer ≥ 1 }',
    );
  return filter;
}
