/**
 * The mock as an undici Dispatcher (`petstore-toolkit/undici`): Node's fetch,
 * undici's fetch and request, and the conformance suite reach it with no socket.
 */
export * from '../core/public.ts';
export { createMockDispatcher, MockDispatcher, type MockDispatcherOptions } from './dispatcher.ts';
