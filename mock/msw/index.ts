/**
 * The mock as MSW request handlers (`petstore-toolkit/msw`): in a browser
 * through MSW's service worker, in Node tests through `setupServer`. No
 * `node:` import; MSW (2 or 3) is the user's own, an optional peer dependency.
 */
export * from '../core/index.ts';
export { createMswHandlers, type MswHandlersOptions, type MswPetstore } from './handlers.ts';
