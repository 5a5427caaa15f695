/**
 * A Dispatcher that sends each request with the global `fetch`, read at call
 * time: so the conformance suite (whose client speaks undici's dispatch
 * protocol) goes through whatever intercepts `fetch`, as MSW's `setupServer`
 * does in Node. A test bridge, not a product: fetch adds its own headers
 * (`accept-encoding`, `user-agent`, `sec-fetch-mode`), which the mock ignores.
 */
import { Dispatcher } from 'undici';
import { headerRecord, portFor } from '../../mock/undici/wire.ts';

/** Makes the bridge. */
export function createFetchDispatcher(): Dispatcher {
  return new FetchDispatcher();
}

class FetchDispatcher extends Dispatcher {
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const port = portFor(handler);
    const controller = new AbortController();
    port.start((reason) => controller.abort(reason));
    send(options, controller.signal).then(port.respond, port.fail);
    return true;
  }
  override async close(): Promise<void> {}
  override async destroy(): Promise<void> {}
}

async function send(options: Dispatcher.DispatchOptions, signal: AbortSignal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(headerRecord(options.headers))) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  // Bytes, never a string: fetch would add `content-type: text/plain` to a string body sent without one.
  const body = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : (options.body as Uint8Array);
  // A path in absolute form (`http://host/v1/pets`) is the whole URL: fetch has no request target of its own to send.
  const response = await globalThis.fetch(new URL(options.path, String(options.origin)), {
    method: options.method,
    headers,
    ...(body ? { body } : {}),
    redirect: 'manual',
    signal,
  });
  const received: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    received[name] = value;
  });
  return { status: response.status, headers: received, body: Buffer.from(await response.arrayBuffer()) };
}
