/**
 * The mock's public entry point: start a seeded, stateful Petstore on a port
 * (0 picks a free one) and get back its URL, keys, store and controls.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Pet } from '../spec/index.ts';
import { createHandler } from './handler.ts';
import { DEFAULT_COUNT, DEFAULT_SEED, seedPets } from './seed.ts';
import { createHttpServer, type RequestLogEntry, type ServerTimeouts } from './server.ts';
import { createPetStore, type PetStore } from './store.ts';

export { loadPetsFile } from './fixtures.ts';
export { CONTROL_PREFIX, createHandler, type Handler, type HandlerOptions } from './handler.ts';
export { type ApiRequest, type ApiResponse, ErrorCode } from './responses.ts';
export { DEFAULT_COUNT, DEFAULT_SEED, MAX_COUNT, seedPets } from './seed.ts';
export { BODY_LIMIT, createHttpServer, DEFAULT_TIMEOUTS, type RequestLogEntry, type ServerTimeouts } from './server.ts';
export { createPetStore, type PetStore, StoredPet } from './store.ts';

/** The development key used when no key is configured. Printed at start; never use it outside a local mock. */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/** Hosts that keep the mock to this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/** Options for {@link startMockServer}. */
export interface MockServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Faker seed; the same seed gives the same pets. */
  seed?: number;
  /** Number of pets to seed (0 to 1,000,000; default 50). */
  count?: number;
  /** Start from these pets instead of faker (`seed` and `count` are then ignored). */
  pets?: readonly Pet[];
  /** Accepted bearer keys (default: the development key). */
  apiKeys?: readonly string[];
  /** CORS headers and preflights (default on). */
  cors?: boolean;
  /** Told when the mock is bound to an address other than loopback (default: process.emitWarning). */
  onWarning?: (message: string) => void;
  /** Called once per request (default: no log). */
  log?: (entry: RequestLogEntry) => void;
  /** Client timeouts (default: headers 10 s, whole request 30 s, idle keep-alive 5 s). */
  timeouts?: ServerTimeouts;
}

/** A running mock. */
export interface MockServer {
  /** Base URL of the API, ending in `/v1`. */
  url: string;
  /** Origin of the server, for the control endpoints (`/__control/...`). */
  origin: string;
  apiKeys: readonly string[];
  store: PetStore;
  /** Back to the seeded pets. */
  reset(): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Seeds a store and serves it over HTTP; resolves once listening. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', cors = true, log } = options;
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? [...options.apiKeys] : [DEFAULT_API_KEY];
  const pets = options.pets ?? seedPets({ seed: options.seed ?? DEFAULT_SEED, count: options.count ?? DEFAULT_COUNT });
  const store = createPetStore(pets);
  const handler = createHandler({ store, apiKeys, cors });
  const server = createHttpServer({ handler, log, secrets: apiKeys, timeouts: options.timeouts });
  server.listen(port, host);
  await once(server, 'listening');
  if (!LOOPBACK_HOSTS.includes(host)) {
    const warn =
      options.onWarning ?? ((message: string) => process.emitWarning(message, { code: 'PETSTORE_MOCK_NOT_LOOPBACK' }));
    warn(`bound to ${host}, not loopback: anyone who can reach this address can use the mock`);
  }
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${hostPart}:${address.port}`;
  return {
    url: `${origin}/v1`,
    origin,
    apiKeys,
    store,
    reset: () => store.reset(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
