/**
 * The one shape a user holds, whichever adapter made it: `startMockServer`
 * (a port), `createMswHandlers` (MSW, plus `handlers`) and
 * `createMockDispatcher` (the dispatcher itself) each give a
 * {@link PetstoreMock}, with methods on the object itself, as msw's SetupApi
 * and undici's MockAgent do; the control endpoints act on the same object.
 * Plain JavaScript types only: nothing here needs Node, so the same calls run
 * in a browser, Bun, Deno and Playwright. Built by createMock (mock.ts).
 */
import type { Pet } from '../../spec/index.ts';
import type { CoverageReport } from './coverage.ts';
import type { JournalEntry, JournalFilter } from './journal.ts';
import type { Fetch } from './layers.ts';
import type { PactFile, PactOptions } from './pact/document.ts';
import type { ProviderStateChange, StateApplied } from './pact/provider-states.ts';
import type { Scenario, ScenarioInput } from './scenarios.ts';

/**
 * The mock's pets, read-only: what `GET /__control/pets` returns. Each read answers at once in memory and as a
 * promise on a database store: `await` it and the same code runs on both.
 */
export interface PetsView {
  /** Number of pets held (on a database: as this mock last saw it; other mocks on it change it too). */
  readonly size: number;
  /** The pet with this id (a frozen object), or undefined. */
  get(id: number): Readonly<Pet> | undefined | Promise<Readonly<Pet> | undefined>;
  /** Every pet, in ascending id order (a fresh array of fresh objects). */
  all(): Pet[] | Promise<Pet[]>;
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
  /** The journal of API requests, oldest first: optionally only a method and path (or template), a page at a time. */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal. */
  clearRequests(): void;
  /**
   * Holds exactly these pets; throws a PetstoreMockError (`PETSTORE_MOCK_INVALID_PETS`) naming a bad item's index and
   * field. On a database store it acts there, and resolves (or rejects) once done: await it.
   */
  replacePets(pets: readonly Pet[]): void | Promise<void>;
  /** Back to the seeded pets, with no scenarios and an empty journal; on a database store a promise: await it. */
  reset(): void | Promise<void>;
  /** Resolves once the pets are seeded: at once, unless faker has to load (a dynamic import) for another seed or count; requests wait for it. */
  readonly ready: Promise<void>;
  /** What the clients' requests exercised of the contract, since the start or the last {@link PetstoreMock.clearCoverage} (`GET /__control/coverage`). */
  coverage(): CoverageReport;
  /** Starts counting coverage anew; `reset()` leaves it, so that it spans a whole test run. */
  clearCoverage(): void;
  /**
   * The consumer contract, a Pact V4 file, written from what the clients relied on since the start or the last
   * {@link PetstoreMock.clearPact} (`GET /__control/pact`); throws a PetstoreMockError naming a bad option.
   */
  pact(options: PactOptions): PactFile;
  /** Starts recording the pact anew; `reset()` leaves it, so that it spans a whole test run. */
  clearPact(): void;
  /**
   * Makes a Pact provider state hold (`POST /__control/provider-states`): sets the pets, or forces an answer;
   * throws a PetstoreMockError (`PETSTORE_MOCK_UNKNOWN_STATE`) listing the known states for another name. On a
   * database store a state that sets the pets answers once they are set, as a promise.
   */
  setProviderState(change: ProviderStateChange): StateApplied | Promise<StateApplied>;
  /**
   * A new session: a mock of its own on the same port (or handlers, or dispatcher), with the same pets and these
   * same members, reached at its `url` (`…/sessions/{name}/v1`) or with the `Petstore-Session: {name}` header; its
   * `close()` ends it. Throws a PetstoreMockError (`PETSTORE_MOCK_SESSION_REFUSED`) for a bad or taken name, beyond
   * the session limit, on a database store, and inside a session (sessions do not nest).
   */
  session(name?: string): PetstoreSession;
  /** Stops answering: a port stops listening; MSW handlers and the dispatcher fail later requests. Resolves once done. */
  close(): Promise<void>;
}

/** A session of a mock ({@link PetstoreMock.session}): the same members, its own state, and its name. */
export interface PetstoreSession extends PetstoreMock {
  /** The session's name: the URL segment after `/sessions/`, and the `Petstore-Session` header's value. */
  readonly name: string;
}

/** A {@link PetstoreMock} as createMock returns it to an adapter: the controls, and how the adapter answers (not enumerable). */
export interface MockCore extends PetstoreMock {
  /**
   * Answers one request: at once, or a promise when a delay applies, the store is a database's or the pets are
   * still loading; what adapters call. The journal keeps `request.headers` itself, not a copy: pass an object
   * nothing changes afterwards.
   */
  readonly fetch: Fetch;
}
