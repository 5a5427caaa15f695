/**
 * One mock, whatever carries its requests: the seeded store, the accepted keys
 * and the handler over them, wrapped in its layers (CORS, control endpoints,
 * journal, rate limit, scenarios, Prefer, chaos, latency). Every adapter is
 * built over {@link assembleMock}, so each behaves the same: the MSW and undici
 * adapters through createMock (create-mock.ts), which seeds synchronously;
 * mock/node with pets it seeds itself, loading faker only when they do not
 * ship as data.
 */
import { listOperations, loadProfile, type Pet, sunsetOf } from '../../spec/index.ts';
import { controlLayer } from './control.ts';
import { corsLayer, corsPolicy } from './cors.ts';
import { type CoverageReport, coverageLayer, createCoverage } from './coverage.ts';
import { DEFAULT_SEED } from './default-pets.ts';
import { badOption } from './errors.ts';
import { createHandler } from './handler.ts';
import { createJournal, type JournalEntry, type JournalFilter, journalLayer } from './journal.ts';
import { type AsyncHandler, compose, type Layer, type Responder } from './layers.ts';
import {
  asOfDate,
  checkChaos,
  checkJournalBytes,
  checkJournalSize,
  checkLatency,
  checkMockOptions,
  checkRateLimit,
  type Latency,
} from './options.ts';
import { answerLayer, chaosLayer, preferLayer, scenarioLayer } from './overrides.ts';
import { seededRandom } from './random.ts';
import { rateLimitLayer } from './rate-limit.ts';
import { validatePets } from './replace-pets.ts';
import type { ApiRequest } from './responses.ts';
import { createScenarioStore, type Scenario, type ScenarioInput } from './scenarios.ts';
import { createPetStore, type PetStore } from './store.ts';

/** The development key used when no key is configured. Printed at start; never use it outside a local mock. */
export const DEFAULT_API_KEY = 'petstore-dev-key';

const BASE_PATH = '/v1';

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
  /** The rate limit's clock in ms (default Date.now), for tests. */
  now?: () => number;
  /**
   * Serve the interface as it stands on this date (a Date or `2030-12-05`; default: today): from an operation's
   * sunset on (getPet's, 5 December 2030), it is removed and answers as an unknown route does (404 Error).
   */
  asOf?: Date | string;
}

/** The scenarios of a mock, in process: the same as `/__control/scenarios`. */
export interface ScenarioControls {
  /** Adds one; throws a PetstoreMockError (code `PETSTORE_MOCK_INVALID_SCENARIO`) naming a bad field. */
  add(input: ScenarioInput): Scenario;
  /** Removes one by id; false when there was none. */
  remove(id: string): boolean;
  clear(): void;
  list(): Scenario[];
}

/** A mock with no transport: hand it requests, read and control its state. */
export interface Mock {
  /** Answers one request (after any delay): what the MSW and undici adapters call. The journal keeps a copy of its headers. */
  handle: AsyncHandler;
  /**
   * Answers one request: at once, or a promise when a delay applies; what the node adapter calls.
   * The journal keeps `request.headers` itself, not a copy: pass an object nothing changes afterwards.
   */
  respond: Responder;
  /** The state, for reading in tests. */
  store: PetStore;
  /** The accepted keys. */
  apiKeys: readonly string[];
  scenarios: ScenarioControls;
  /** The journal of API requests, oldest first, optionally only those of a method and path (or template). */
  requests(filter?: JournalFilter): JournalEntry[];
  clearRequests(): void;
  /** Holds exactly these pets; throws a PetstoreMockError (`PETSTORE_MOCK_INVALID_PETS`) naming a bad item's index and field. */
  replacePets(pets: readonly Pet[]): void;
  /** Back to the seeded pets, with no scenarios and an empty journal. */
  reset(): void;
  /** Resolves once the pets are seeded: at once, unless faker has to load for another seed or count. */
  ready: Promise<void>;
  /** What the clients' requests exercised of the contract since the start or the last {@link Mock.clearCoverage}. */
  coverage(): CoverageReport;
  /** Starts counting anew (`reset()` does not: coverage spans a whole test run). */
  clearCoverage(): void;
}

/**
 * Where an adapter mounts the mock: `prefix` is the path before `/v1` (`/api` for a base URL ending in
 * `/api/v1`). The adapter strips it from each request; the mock writes it into the URLs it answers with.
 */
export interface MountPrefix {
  prefix?: string;
}

/** Builds the handler, wrapped in its layers, over a store holding `pets` (the seed still draws latency and chaos). */
export function assembleMock(options: MockOptions, pets: readonly Pet[], mount: MountPrefix = {}): Mock {
  checkMockOptions(options);
  const latency = checkLatency(options.latency);
  checkRateLimit(options.rateLimit);
  checkChaos(options.chaos);
  checkJournalSize(options.journalSize);
  checkJournalBytes(options.journalBytes);
  const cors = corsPolicy(options.corsOrigins);
  const seed = options.seed ?? DEFAULT_SEED;
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? [...options.apiKeys] : [DEFAULT_API_KEY];
  // Given pets are checked as replacePets checks them: a bad one is named, not a TypeError from deep inside.
  const store = createPetStore(options.pets === undefined ? pets : validatePets(options.pets));
  const scenarios = createScenarioStore();
  const journal = createJournal({ capacity: options.journalSize, maxBytes: options.journalBytes, keys: apiKeys });
  const removed = removedOperations(options.asOf);
  const coverage = createCoverage({ removed });
  const reset = () => (store.reset(), scenarios.clear(), journal.clear());
  const replacePets = (input: unknown) => store.replace(validatePets(input));
  // The served profile names this mock's own base path, relative to where it is read from (any host, any port),
  // not the default address the profile document carries.
  const profile = () =>
    JSON.stringify({
      ...loadProfile(),
      servers: [
        { url: `${mount.prefix ?? ''}${BASE_PATH}`, description: 'This mock, where this document was read from.' },
      ],
    });
  const latencyRandom = seededRandom(seed);
  const draw = () => latency.min + Math.floor(latencyRandom() * (latency.max - latency.min + 1));
  const layers: Layer[] = [
    ...(options.cors === false ? [] : [corsLayer(cors)]),
    controlLayer({ store, scenarios, journal, reset, replacePets, profile, coverage }),
    journalLayer(journal),
    coverageLayer(coverage),
    ...(options.rateLimit === undefined ? [] : [rateLimitLayer({ perSecond: options.rateLimit, now: options.now })]),
    scenarioLayer(scenarios),
    preferLayer(),
    ...(options.chaos ? [chaosLayer({ rate: options.chaos, random: seededRandom(seed ^ 0x5eed) })] : []),
    answerLayer({ latency: latency.max === 0 ? () => 0 : draw }),
  ];
  const urlBase = `${mount.prefix ?? ''}${BASE_PATH}`;
  const respond = compose(layers, createHandler({ store, apiKeys, basePath: BASE_PATH, urlBase, removed }), BASE_PATH);
  return {
    handle: async (request) => respond({ ...request, headers: copyHeaders(request.headers) }),
    respond,
    store,
    apiKeys,
    scenarios: { add: scenarios.add, remove: scenarios.remove, clear: scenarios.clear, list: scenarios.list },
    requests: (filter) => journal.list(checkFilter(filter)),
    clearRequests: () => journal.clear(),
    replacePets,
    reset,
    ready: Promise.resolve(),
    coverage: coverage.report,
    clearCoverage: coverage.clear,
  };
}

/** The operations whose sunset has come by `asOf` (none without it). */
function removedOperations(asOf: MockOptions['asOf']): ReadonlySet<string> {
  if (asOf === undefined) return new Set();
  const date = asOfDate(asOf);
  return new Set(
    listOperations()
      .map((op) => op.operationId)
      .filter((id) => {
        const sunset = sunsetOf(id);
        return sunset !== undefined && date.getTime() >= sunset.getTime();
      }),
  );
}

/** `filter` when it is one {@link Mock.requests} can use; a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) otherwise. */
function checkFilter(filter: JournalFilter | undefined): JournalFilter | undefined {
  if (filter === undefined) return filter;
  const ok =
    typeof filter === 'object' &&
    filter !== null &&
    (filter.method === undefined || typeof filter.method === 'string') &&
    (filter.path === undefined || typeof filter.path === 'string');
  if (!ok) throw badOption('requests(filter): filter must be { method?: string, path?: string }');
  return filter;
}

/** A copy of `headers` nothing outside can change (a repeated header's array included). */
function copyHeaders(headers: ApiRequest['headers']): ApiRequest['headers'] {
  // Entries, not assignments: a header named `__proto__` must stay a plain field.
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? [...value] : value]),
  );
}
