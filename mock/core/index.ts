/**
 * The pure mock, for people building their own adapter: `createMock` (plain
 * request in, plain response out, no `node:` import, so it runs in a browser),
 * the helpers every adapter shares (mount, answer, body limit), the control
 * interface and how to build it, and the error family. Users of the mock take
 * an adapter's entry instead (`/mock`, `/msw`, `/undici`).
 */

export { createKeyRedactor } from '../../guard/redact.ts';
export { answer, BODY_LIMIT, bodyless, DEFAULT_BASE_URL, type Mount, mounted, mountOf } from './adapter.ts';
export { createAuthenticator } from './auth.ts';
export { loadSeededPets } from './default-pets.ts';
export { PETSTORE_MOCK_ERROR_CODES } from './errors.ts';
export { createHandler, type Handler } from './handler.ts';
export { createMock, type MockAdapter } from './mock.ts';
export type { MockCore } from './petstore-mock.ts';
// What every adapter's entry exports (the control interface, its member types, the coverage gates, the errors).
export * from './public.ts';
export type { ApiRequest, ApiResponse } from './responses.ts';
export { createPetStore } from './store.ts';
