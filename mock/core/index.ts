/**
 * The pure mock, for people building their own adapter: `createMock` (plain
 * request in, plain response out, no `node:` import, so it runs in a browser),
 * the helpers every adapter shares (mount, fetchOr500, body limit), the control
 * interface and how to build it, and the error family. Users of the mock take
 * an adapter's entry instead (`/mock`, `/msw`, `/undici`).
 */

export { createKeyRedactor } from '../../guard/redact.ts';
export { BODY_LIMIT, bodyless, DEFAULT_BASE_URL, fetchOr500, type Mount, mounted, mountOf } from './adapter.ts';
export { PETSTORE_MOCK_ERROR_CODES } from './errors.ts';
export type { Answer, Fetch } from './layers.ts';
export { createMock, type MockAdapter } from './mock.ts';
export type { MockCore } from './petstore-mock.ts';
// What every adapter's entry exports (the control interface, its member types, the coverage gates, the errors).
export * from './public.ts';
export type { ApiRequest, ApiResponse } from './responses.ts';
export type { Later, Listing, PetStore, StoredPet } from './store.ts';
