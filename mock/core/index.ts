/**
 * The pure mock: (ApiRequest) -> ApiResponse on plain objects, with its store,
 * seed, error codes, and the layers around the handler (CORS, control
 * endpoints, journal, rate limit, scenarios, Prefer, chaos, latency). No
 * `node:` import, so it runs in a browser and behind any adapter (mock/node,
 * and the MSW and undici adapters).
 */
export {
  answer,
  BODY_LIMIT,
  bodyless,
  DEFAULT_BASE_URL,
  MockOptionError,
  type Mount,
  mountOf,
  pathInMount,
} from './adapter.ts';
export { type Authenticator, type AuthFailure, createAuthenticator } from './auth.ts';
export { CONTROL_PREFIX } from './control.ts';
export { ALLOWED_HEADERS, EXPOSED_HEADERS } from './cors.ts';
export { createMock } from './create-mock.ts';
export { DEFAULT_COUNT, DEFAULT_SEED, MAX_COUNT, type SeedOptions } from './default-pets.ts';
export { FORCEABLE_STATUSES, SERVICE_FAILURES } from './forced.ts';
export { createHandler, type Handler, type HandlerOptions } from './handler.ts';
export {
  DEFAULT_JOURNAL_SIZE,
  JOURNAL_BODY_LIMIT,
  type JournalEntry,
  type JournalFilter,
  MAX_JOURNAL_SIZE,
  REDACTED,
} from './journal.ts';
export type { Answer, Applied, AsyncHandler, Responder, Target } from './layers.ts';
export { DEFAULT_API_KEY, type Mock, type MockOptions, type ScenarioControls } from './mock.ts';
export { type Latency, MockOptionsError, parseLatency } from './options.ts';
export { controlsOf, type PetstoreMock, type PetsView, petsView } from './petstore-mock.ts';
export { MAX_DELAY_MS } from './prefer.ts';
export {
  type ApiRequest,
  type ApiResponse,
  ErrorCode,
  errorResponse,
  FAULTS,
  type Fault,
  jsonResponse,
  type TransportFault,
} from './responses.ts';
export { MockInputError, type Scenario, type ScenarioInput } from './scenarios.ts';
export { seedPets } from './seed.ts';
export { createPetStore, type PetStore, StoredPet } from './store.ts';
