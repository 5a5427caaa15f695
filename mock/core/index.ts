/**
 * The pure mock, for people building their own adapter: `createMock` (plain
 * request in, plain response out, no `node:` import, so it runs in a browser),
 * the helpers every adapter shares (mount, answer, body limit), the control
 * interface and how to build it, and the error family. Users of the mock take
 * an adapter's entry instead (`/mock`, `/msw`, `/undici`).
 */
export { answer, BODY_LIMIT, bodyless, DEFAULT_BASE_URL, type Mount, mounted, mountOf } from './adapter.ts';
export { createAuthenticator } from './auth.ts';
export { createMock } from './create-mock.ts';
export { loadSeededPets } from './default-pets.ts';
export { PETSTORE_MOCK_ERROR_CODES, PetstoreMockError, type PetstoreMockErrorCode } from './errors.ts';
export { createHandler, type Handler } from './handler.ts';
export type { Mock, MockOptions, MountPrefix } from './mock.ts';
export { controlsOf, type PetstoreMock, type PetsView } from './petstore-mock.ts';
export { createKeyRedactor } from './redact.ts';
export type { ApiRequest, ApiResponse } from './responses.ts';
export { createPetStore } from './store.ts';
