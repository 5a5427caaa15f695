/**
 * The mock as MSW request handlers (`petstore-toolkit/msw`): in a browser
 * through MSW's service worker, in Node tests through `setupServer`. No
 * `node:` import, and no faker unless another seed or count asks for it;
 * MSW (2 or 3) is the user's own, an optional peer dependency.
 */
export * from '../core/public.ts';
export { createMswHandlers, type MswHandlersOptions, type MswPetstore } from './handlers.ts';
