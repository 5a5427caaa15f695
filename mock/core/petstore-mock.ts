/**
 * The one shape a user holds, whichever adapter made it: `startMockServer`
 * (a port), `createMswHandlers` (MSW, plus `handlers`) and
 * `createMockDispatcher` (the dispatcher itself) each give a
 * {@link PetstoreMock}, with methods on the object itself, as msw's SetupApi
 * and undici's MockAgent do. Plain JavaScript types only: nothing here needs
 * Node, so the same calls run in a browser, Bun, Deno and Playwright.
 */
import type { Pet } from '../../spec/index.ts';
import type { CoverageReport } from './coverage.ts';
import type { JournalEntry, JournalFilter } from './journal.ts';
import type { Mock, ScenarioControls } from './mock.ts';

/** The mock's pets, read-only: what `GET /__control/pets` returns. */
export interface PetsView {
  /** Number of pets held. */
  readonly size: number;
  /** The pet with this id (a frozen object), or undefined. */
  get(id: number): Readonly<Pet> | undefined;
  /** Every pet, in ascending id order (a fresh array of fresh objects). */
  all(): Pet[];
}

/** A running mock and its controls, the same on every adapter; each mirrors a `/__control/...` endpoint. */
export interface PetstoreMock {
  /** Base URL of the API, without a trailing slash (ends in `/v1`). */
  readonly url: string;
  /** The accepted bearer keys. */
  readonly apiKeys: readonly string[];
  /** The pets, read-only (change them through the API, {@link PetstoreMock.replacePets} or {@link PetstoreMock.reset}). */
  readonly pets: PetsView;
  /** The scenarios: canned answers for matching requests. */
  readonly scenarios: ScenarioControls;
  /** The journal of API requests, oldest first, optionally only those of a method and path (or template). */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal. */
  clearRequests(): void;
  /** Holds exactly these pets; throws a PetstoreMockError (`PETSTORE_MOCK_INVALID_PETS`) naming a bad item's index and field. */
  replacePets(pets: readonly Pet[]): void;
  /** Back to the seeded pets, with no scenarios and an empty journal. */
  reset(): void;
  /** Resolves once the pets are seeded: at once, unless faker has to load (a dynamic import) for another seed or count; requests wait for it. */
  readonly ready: Promise<void>;
  /** What the clients' requests exercised of the contract, since the start or the last {@link PetstoreMock.clearCoverage} (`GET /__control/coverage`). */
  coverage(): CoverageReport;
  /** Starts counting coverage anew; `reset()` leaves it, so that it spans a whole test run. */
  clearCoverage(): void;
  /** Stops answering: a port stops listening; MSW handlers and the dispatcher fail later requests. Resolves once done. */
  close(): Promise<void>;
}

/** The read-only view over a mock's store. */
export function petsView(mock: Pick<Mock, 'store'>): PetsView {
  const { store } = mock;
  return {
    get size() {
      return store.size;
    },
    get: (id) => store.get(id)?.pet,
    all: () => store.all(),
  };
}

/** The {@link PetstoreMock} of a core mock, for an adapter: its URL and how it closes are the adapter's. */
export function controlsOf(mock: Mock, url: string, close: () => Promise<void>): PetstoreMock {
  return {
    url,
    apiKeys: mock.apiKeys,
    pets: petsView(mock),
    scenarios: mock.scenarios,
    requests: mock.requests,
    clearRequests: mock.clearRequests,
    replacePets: mock.replacePets,
    reset: mock.reset,
    ready: mock.ready,
    coverage: mock.coverage,
    clearCoverage: mock.clearCoverage,
    close,
  };
}
