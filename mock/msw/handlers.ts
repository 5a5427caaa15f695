/**
 * The MSW adapter: request handlers that translate a Fetch `Request` into the
 * core's ApiRequest and its ApiResponse back into a `Response`. The same
 * handlers run in a browser (service worker) and in Node (`setupServer`).
 */
import { type HttpHandler, http } from 'msw';
import { BODY_LIMIT, bodyless, fetchOr500, type Mount, mountOf, pathInMount } from '../core/adapter.ts';
import { createMock, type MockOptions } from '../core/mock.ts';
import { optionsObject } from '../core/options.ts';
import type { PetstoreMock } from '../core/petstore-mock.ts';
import type { ApiRequest, ApiResponse } from '../core/responses.ts';

/** Options for {@link createMswHandlers}: the mock's own, and where it answers. */
export interface MswHandlersOptions extends MockOptions {
  /** Base URL ending in `/v1`: `https://api.example.test/v1`, or a path (`/v1`) on the page's own origin. Default `http://petstore.test/v1`. */
  baseUrl?: string;
}

/** The mock as MSW handlers: the {@link PetstoreMock} controls, and the handlers; `close()` makes them fail later requests as network errors. */
export interface MswPetstore extends PetstoreMock {
  /** The handlers to give `setupServer(...)` or `setupWorker(...)`: the API under `baseUrl`, the controls beside it. */
  readonly handlers: HttpHandler[];
}

/** Builds the mock and MSW handlers for its API (`{baseUrl}/*`), its control endpoints (`/__control/*` beside `/v1`) and its sessions (`/sessions/*`). */
export function createMswHandlers(options: MswHandlersOptions = {}): MswPetstore {
  const { baseUrl, ...mockOptions } = optionsObject(options);
  const mount = mountOf(baseUrl);
  let closed = false;
  const mock = createMock(mockOptions, {
    optionNames: ['baseUrl'],
    prefix: mount.prefix,
    url: () => mount.baseUrl,
    close: async () => {
      closed = true;
    },
  });
  const resolve = async ({ request }: { request: Request }): Promise<Response> => {
    // As the dispatcher fails a request after close: the handlers stay mounted, the mock no longer answers.
    if (closed) return Response.error();
    const apiRequest = await toApiRequest(mount, request);
    // The page's fetch aborted (its timeout, its signal) while the mock made its answer: that answer is abandoned.
    const { signal } = request;
    if (signal?.aborted) apiRequest.abandoned = true;
    else signal?.addEventListener('abort', () => (apiRequest.abandoned = true), { once: true });
    const response = await fetchOr500(mock.fetch, apiRequest);
    if (response.fault !== undefined) return faultResponse(request, response);
    return toResponse(request.method, response);
  };
  // Sessions are reached under `/sessions/{name}/` beside `/v1` (the core answers a name it does not hold).
  const handlers = ['/v1', '/v1/.*', '/__control/.*', '/sessions/.*'].map((tail) =>
    http.all(mountPattern(mount, tail), resolve),
  );
  return Object.assign(mock, { handlers });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The URLs under the mount ending in `tail`, as a RegExp with no capture group. A path pattern (`/v1/*`) would have
 * MSW decode its wildcard, and MSW 2's path-to-regexp throws URIError on an escape that is not UTF-8 (`/v1/pets/%FF`),
 * which MSW answers 500: with nothing to decode, such a request reaches the mock and gets the node server's answer.
 * A relative mount is the page's origin, as MSW resolves a relative path.
 */
function mountPattern(mount: Mount, tail: string): RegExp {
  const origin = mount.origin || (globalThis as { location?: { origin?: string } }).location?.origin || '';
  const host = origin === '' ? 'https?://[^/]+' : escapeRegExp(origin);
  return new RegExp(`^${host}${escapeRegExp(mount.prefix)}${tail}$`);
}

async function toApiRequest(mount: Mount, request: Request): Promise<ApiRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // MSW only calls these handlers inside the mount, so the path is always there.
  const path = pathInMount(mount, url.pathname + url.search) ?? url.pathname + url.search;
  const apiRequest: ApiRequest = { method: request.method, url: path, headers };
  if (request.body === null) return apiRequest;
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > BODY_LIMIT) apiRequest.bodyTooLarge = true;
  else apiRequest.body = body;
  return apiRequest;
}

function toResponse(method: string, response: ApiResponse): Response {
  const headers = new Headers(response.headers);
  // As the node server does: the length of the body, which a HEAD answer states without sending.
  if (response.body !== '') headers.set('content-length', String(new TextEncoder().encode(response.body).byteLength));
  const empty = bodyless(method, response.status) || response.body === '';
  return new Response(empty ? null : response.body, { status: response.status, headers });
}

/**
 * A transport fault (see ApiResponse) as the Fetch API shows one, since there is
 * no socket to cut: a network error for `reset` and `close`; for `truncated`,
 * the headers and half the body, then the stream errors; for `hang`, nothing
 * until the request is aborted.
 */
async function faultResponse(request: Request, response: ApiResponse): Promise<Response> {
  if (response.fault === 'hang') {
    await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
    return Response.error();
  }
  if (response.fault !== 'truncated') return Response.error();
  const bytes = new TextEncoder().encode(response.body);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.byteLength >> 1));
      controller.error(new TypeError('terminated: the connection closed before the whole body arrived'));
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.byteLength));
  return new Response(body, { status: response.status, headers });
}
