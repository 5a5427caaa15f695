/**
 * The mock in Node (`petstore-toolkit/mock`): start a seeded, stateful Petstore on a port
 * (0 picks a free one) and get back its URL, keys, store and its typed controls (scenarios,
 * the request journal, the state), the same as the control endpoints.
 */
export * from '../core/index.ts';
export { loadPetsFile } from './fixtures.ts';
export {
  createHttpServer,
  DEFAULT_TIMEOUTS,
  type RequestLogEntry,
  type ServerHandler,
  type ServerTimeouts,
} from './server.ts';
export { LOOPBACK_HOSTS, type MockServer, type MockServerOptions, startMockServer } from './start.ts';
