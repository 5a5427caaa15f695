/**
 * The pure mock: (ApiRequest) -> ApiResponse on plain objects, with its store,
 * seed and error codes. No `node:` import, so it runs in a browser and behind
 * any adapter (mock/node, and the MSW and undici adapters).
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
export { CONTROL_PREFIX, createHandler, type Handler, type HandlerOptions } from './handler.ts';
export { createMock, DEFAULT_API_KEY, type Mock, type MockOptions } from './mock.ts';
export { type ApiRequest, type ApiResponse, ErrorCode, errorResponse, jsonResponse } from './responses.ts';
export { DEFAULT_COUNT, DEFAULT_SEED, MAX_COUNT, type SeedOptions, seedPets } from './seed.ts';
export { createPetStore, type PetStore, StoredPet } from './store.ts';
