/**
 * startMockServer: the mock over node:http on a port, built by createMock like
 * every adapter; it listens once the pets are seeded (faker loads only when
 * they do not ship as data, so neither this nor the command loads it for the
 * default seed).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mounted, mountOf } from '../core/adapter.ts';
import { badOption, PetstoreMockError } from '../core/errors.ts';
import { createMock, type MockOptions } from '../core/mock.ts';
import { checkStoreBytes, checkType, optionsObject } from '../core/options.ts';
import type { PetstoreMock } from '../core/petstore-mock.ts';
import { hostCheck } from './hosts.ts';
import { type PetsSource, readPetsFrom } from './pets-from.ts';
import { createHttpServer, type RequestLogEntry, type ServerTimeouts } from './server.ts';
import { parseStoreUrl, storeFailed } from './stores/common.ts';
import { openStore } from './stores/open.ts';

/** Hosts that keep the mock to this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/** Whether binding `host` keeps the mock on this machine: a loopback name or address (127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]';
}

/** Options for {@link startMockServer}: those of the mock itself, and of its socket. */
export interface MockServerOptions extends Omit<MockOptions, 'sharedStore'> {
  /**
   * Where the pets live: `memory` (the default), `sqlite:FILE` (survives a restart; needs better-sqlite3) or
   * `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (shared by several mocks; needs pg). See docs/mock.md "Stores".
   */
  store?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Path of the API, ending in `/v1` (default `/v1`): `/api/v1` serves it there and the controls at `/api/__control`. */
  basePath?: string;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Told when the mock is bound to an address other than loopback (default: process.emitWarning). */
  onWarning?: (message: string) => void;
  /** Called once per request (default: no log). */
  log?: (entry: RequestLogEntry) => void;
  /** Client timeouts (default: headers 10 s, whole request 30 s, idle keep-alive 5 s). */
  timeouts?: ServerTimeouts;
  /**
   * Start with the pets another server of this interface lists (GET only; see docs/mock.md), instead of a seed or
   * `pets`; `reset()` goes back to them. Told how many through `onPetsRead`.
   */
  petsFrom?: PetsSource;
  /** Told what `petsFrom` read: how many pets, and which listings came back full (the source may hold more). */
  onPetsRead?: (read: { count: number; fullListings: string[]; requests: number }) => void;
  /**
   * `Host` names answered besides `localhost`, `*.localhost`, IP addresses and `host` (`.example.com` allows its
   * subdomains too); `true` answers any (DNS rebinding then reaches the mock). Others get a 403 Error.
   */
  allowedHosts?: readonly string[] | true;
}

/** A mock on a port: the {@link PetstoreMock} controls, and the server's origin; `close()` stops listening and closes every connection. */
export interface MockServer extends PetstoreMock {
  /** Origin of the server, for the control endpoints (`/__control/...`). */
  readonly origin: string;
}

/** The options of the socket, taken out before createMock checks the rest (its error suggests these too). */
const SERVER_OPTION_NAMES: readonly (keyof Omit<MockServerOptions, keyof MockOptions>)[] = [
  'store',
  'port',
  'basePath',
  'host',
  'onWarning',
  'log',
  'timeouts',
  'petsFrom',
  'onPetsRead',
  'allowedHosts',
];

/** Throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) naming the first server option it cannot use (createMock checks the rest). */
function checkServerOptions(options: MockServerOptions): void {
  const { port, host, timeouts } = options;
  if (port !== undefined && !(Number.isSafeInteger(port) && port >= 0 && port <= 65535))
    throw badOption('port', `must be an integer from 0 to 65535, got ${String(port)}`);
  if (host !== undefined && (typeof host !== 'string' || host === ''))
    throw badOption('host', 'must be a non-empty string (an address or a name)');
  checkType('log', options.log, 'function');
  checkType('onWarning', options.onWarning, 'function');
  checkType('timeouts', timeouts, 'object');
  checkType('petsFrom', options.petsFrom, 'object');
  checkType('onPetsRead', options.onPetsRead, 'function');
  checkType('store', options.store, 'string');
  if (options.store !== undefined) parseStoreUrl(options.store);
  if (options.petsFrom !== undefined) {
    const clash = (['pets', 'seed', 'count'] as const).filter((name) => options[name] !== undefined);
    if (clash.length > 0)
      throw badOption('petsFrom', `cannot go with ${clash.join(', ')}: the pets come from the source`);
    if (typeof options.petsFrom?.url !== 'string') throw badOption('petsFrom.url', 'must be the source base URL');
  }
  if (
    options.basePath !== undefined &&
    (typeof options.basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*\/v1\/?$/.test(options.basePath))
  )
    throw badOption('basePath', `must be a path ending in /v1 (/v1, /api/v1), got ${JSON.stringify(options.basePath)}`);
  mountOf(options.basePath);
  for (const [name, ms] of Object.entries(timeouts ?? {}))
    if (
      !['headersMs', 'requestMs', 'keepAliveMs'].includes(name) ||
      !(Number.isSafeInteger(ms) && ms >= 1 && ms <= 3_600_000)
    )
      throw badOption('timeouts', `.${name} must be headersMs, requestMs or keepAliveMs, whole ms from 1 to 3600000`);
}

/** Seeds a store and serves it over HTTP; resolves once the pets are seeded and it listens. */
export async function startMockServer(given?: MockServerOptions): Promise<MockServer> {
  const options = optionsObject(given);
  checkServerOptions(options);
  const {
    port = 0,
    host = '127.0.0.1',
    log,
    onWarning,
    timeouts,
    petsFrom,
    onPetsRead,
    allowedHosts,
    basePath,
    store,
    ...mockOptions
  } = options;
  // Beyond loopback, whoever reaches the address could reset the mock or force 503s on everyone; on a store that
  // several mocks share, a reset from one empties every one: not without a key.
  const sharedByMocks = store !== undefined && parseStoreUrl(store).kind === 'postgres';
  if ((!isLoopback(host) || sharedByMocks) && mockOptions.controlKey === undefined)
    throw badOption(
      'controlKey',
      `is required ${sharedByMocks ? 'on a PostgreSQL store, which other mocks share' : `to listen on ${host}, beyond loopback`}: anyone who reaches it could reset the mock or force errors on everyone (set PETSTORE_CONTROL_KEY, or give one in a file)`,
    );
  const hostAllowed = hostCheck(allowedHosts, host);
  const mount = mountOf(basePath ?? '/v1');
  let url = '';
  let closing: Promise<void> | undefined;
  let server: Server | undefined;
  const sharedStore = store === undefined ? undefined : await openStore(store, checkStoreBytes(mockOptions.storeBytes));
  let mock: ReturnType<typeof createMock>;
  try {
    mock = createMock(
      { ...mockOptions, ...(sharedStore ? { sharedStore } : {}) },
      {
        optionNames: SERVER_OPTION_NAMES,
        prefix: mount.prefix,
        url: () => url,
        // Once: a second close() (a test's afterEach after the test closed it) resolves with the first.
        close: () =>
          (closing ??= new Promise<void>((resolve, reject) => {
            server?.close((error) => (error ? reject(error) : resolve()));
            server?.closeAllConnections();
          }).finally(() => sharedStore?.close?.())),
        // On a port, CORS grants no origin beyond loopback unless told, unlike in process.
        corsOrigins: [],
        ...(petsFrom === undefined
          ? {}
          : {
              loadPets: async () => {
                const read = await readPetsFrom(petsFrom);
                onPetsRead?.({ count: read.pets.length, fullListings: read.fullListings, requests: read.requests });
                return read.pets;
              },
            }),
      },
    );
    await mock.ready;
  } catch (error) {
    // A store that could not be seeded (or options it refused) is let go: nothing keeps the process alive.
    await sharedStore?.close?.().catch(() => {});
    throw sharedStore && !(error instanceof PetstoreMockError) ? storeFailed(store!, describeError(error)) : error;
  }
  server = createHttpServer({
    fetch: mounted(mount, mock.fetch),
    log,
    secrets: mockOptions.controlKey === undefined ? mock.apiKeys : [...mock.apiKeys, mockOptions.controlKey],
    timeouts,
    hostAllowed,
  });
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await sharedStore?.close?.().catch(() => {});
    throw error;
  }
  if (!isLoopback(host)) {
    const warn =
      onWarning ?? ((message: string) => process.emitWarning(message, { code: 'PETSTORE_MOCK_NOT_LOOPBACK' }));
    warn(
      `bound to ${host}, not loopback: anyone who can reach this address can call the API (the controls need the control key)`,
    );
  }
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${hostPart}:${address.port}`;
  url = `${origin}${mount.prefix}/v1`;
  return Object.assign(mock, { origin }) as MockServer;
}

/** A driver's error in one line: its code and message. */
function describeError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const text = String(e?.message ?? error).split('\n')[0] ?? '';
  return typeof e?.code === 'string' ? `${e.code}: ${text}` : text;
}
