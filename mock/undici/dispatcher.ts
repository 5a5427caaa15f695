/**
 * The undici adapter: a Dispatcher that answers from the pure mock, with no
 * socket, in the spirit of undici's MockAgent. Give it to `setGlobalDispatcher`
 * (Node's own fetch and undici's), to one call (`{ dispatcher }`), or to
 * `runConformance({ dispatcher })`.
 */
import { Dispatcher, errors } from 'undici';
import { bodyless, fetchOr500, type Mount, mounted, mountOf } from '../core/adapter.ts';
import { badOption, PetstoreMockError } from '../core/errors.ts';
import { createMock, type MockOptions } from '../core/mock.ts';
import { optionsObject } from '../core/options.ts';
import type { MockCore, PetstoreMock } from '../core/petstore-mock.ts';
import type { ApiRequest } from '../core/responses.ts';
import { closedByPeer, headerRecord, portFor, readBody, type WireResponse } from './wire.ts';

/** Options for {@link createMockDispatcher}: the mock's own, where it answers, and what to do with other origins. */
export interface MockDispatcherOptions extends MockOptions {
  /** Base URL ending in `/v1` (default `http://petstore.test/v1`); requests to its origin are answered by the mock. */
  baseUrl?: string;
  /** Where requests to any other origin go (say, the previous global dispatcher); without it they fail with `PETSTORE_MOCK_UNKNOWN_ORIGIN`. */
  fallback?: Dispatcher;
}

/** The controls a {@link MockDispatcher} carries as its own: every member of {@link PetstoreMock} but `close`, which is the dispatcher's. */
type DispatcherControls = Omit<PetstoreMock, 'close'>;

// The class below gets its controls from createMock's object, member for member, rather than a second list.
export interface MockDispatcher extends DispatcherControls {}

/**
 * The mock as an undici Dispatcher that is also its {@link PetstoreMock}: the object given to
 * `setGlobalDispatcher` or `{ dispatcher }` is the one whose controls a test calls, as with undici's MockAgent.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above.
export class MockDispatcher extends Dispatcher implements PetstoreMock {
  readonly #mount: Mount;
  readonly #fallback: Dispatcher | undefined;
  readonly #answer: MockCore['fetch'];
  #closed = false;

  constructor(options: MockDispatcherOptions = {}) {
    super();
    // Bun's stand-in for undici has no request(), and Bun's fetch ignores `dispatcher`: a request would
    // leave for the made-up host and fail on DNS, so the dispatcher is refused before anything is sent.
    if (typeof Dispatcher.prototype.request !== 'function')
      throw new PetstoreMockError(
        'PETSTORE_MOCK_UNSUPPORTED_RUNTIME',
        "this runtime's undici cannot carry a dispatcher (Bun's fetch ignores it): start the mock on a port with startMockServer (petstore-toolkit/mock), or use MSW's setupServer with createMswHandlers (petstore-toolkit/msw)",
      );
    const { baseUrl, fallback, ...mockOptions } = optionsObject(options);
    this.#mount = mountOf(baseUrl);
    if (this.#mount.origin === '') throw badOption('baseUrl', 'must be absolute (http://host/v1) for the dispatcher');
    if (fallback !== undefined && typeof (fallback as { dispatch?: unknown } | null)?.dispatch !== 'function')
      throw badOption('fallback', 'must be an undici Dispatcher (an object with dispatch())');
    this.#fallback = fallback;
    const mount = this.#mount;
    const mock = createMock(mockOptions, {
      optionNames: ['baseUrl', 'fallback'],
      prefix: mount.prefix,
      url: () => mount.baseUrl,
      close: () => this.close(),
    });
    this.#answer = mounted(mount, mock.fetch);
    // The controls are createMock's own (getters included), on this object: the control endpoints act on them too.
    const { close: _close, ...controls } = Object.getOwnPropertyDescriptors(mock);
    Object.defineProperties(this, controls);
  }

  /** Takes one request (undici's dispatch protocol) and answers it from the mock, asynchronously. */
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin === undefined ? '' : new URL(String(options.origin)).origin;
    if (origin !== this.#mount.origin && this.#fallback && !this.#closed)
      return this.#fallback.dispatch(options, handler);
    const port = portFor(handler);
    let settled = false;
    // The caller's abort (its timeout, its signal) while the mock makes its answer: that answer is abandoned.
    const caller: Caller = { abandoned: false };
    port.start((reason) => {
      if (settled) return;
      settled = true;
      caller.abandoned = true;
      if (caller.request) caller.request.abandoned = true;
      port.fail(reason ?? new errors.RequestAbortedError());
    });
    const refused = this.#refusal(origin);
    const work = refused ? Promise.reject(refused) : this.#respond(options, caller);
    work.then(
      (response) => {
        if (!settled) (settled = true), port.respond(response);
      },
      (error: Error) => {
        if (!settled) (settled = true), port.fail(error);
      },
    );
    return true;
  }

  /** Resolves at once: there is no connection to wait for. Later requests fail with `PETSTORE_MOCK_CLOSED`. */
  override async close(): Promise<void> {
    this.#closed = true;
  }

  /** The same as {@link close}: nothing is in flight that could be cut. */
  override async destroy(): Promise<void> {
    this.#closed = true;
  }

  #refusal(origin: string): PetstoreMockError | undefined {
    if (this.#closed) return new PetstoreMockError('PETSTORE_MOCK_CLOSED', 'the mock dispatcher is closed');
    if (origin === this.#mount.origin) return undefined;
    return new PetstoreMockError(
      'PETSTORE_MOCK_UNKNOWN_ORIGIN',
      `the mock answers ${this.#mount.origin}, not ${origin || 'a request with no origin'} (give a fallback dispatcher for other origins)`,
    );
  }

  async #respond(options: Dispatcher.DispatchOptions, caller: Caller): Promise<WireResponse> {
    const query = options.query ? `${options.path.includes('?') ? '&' : '?'}${new URLSearchParams(options.query)}` : '';
    const path = options.path + query;
    const request: ApiRequest = { method: options.method, url: path, headers: {} };
    request.headers = headerRecord(options.headers);
    const { bytes, tooLarge } = await readBody(options.body);
    if (tooLarge) request.bodyTooLarge = true;
    else if (bytes) request.body = bytes;
    caller.request = request;
    if (caller.abandoned) request.abandoned = true;
    const response = await fetchOr500(this.#answer, request);
    // Transport faults (see ApiResponse): a hang never answers (the caller's timeout or signal ends it).
    if (response.fault === 'hang') return new Promise<never>(() => {});
    if (response.fault === 'reset' || response.fault === 'close') throw closedByPeer();
    const headers: Record<string, string> = { ...response.headers };
    if (response.body !== '') headers['content-length'] = String(Buffer.byteLength(response.body));
    const body = bodyless(options.method, response.status) ? Buffer.alloc(0) : Buffer.from(response.body);
    if (response.fault === 'truncated') return { status: response.status, headers, body, cutAt: body.length >> 1 };
    return { status: response.status, headers, body };
  }
}

/** Whether the caller gave up on a dispatch, and the request the mock is answering for it. */
interface Caller {
  abandoned: boolean;
  request?: ApiRequest;
}

/** Seeds a mock and wraps it in a {@link MockDispatcher}. */
export function createMockDispatcher(options: MockDispatcherOptions = {}): MockDispatcher {
  return new MockDispatcher(options);
}
