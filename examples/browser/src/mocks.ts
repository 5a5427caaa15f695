// The mock, in the page: the toolkit's MSW handlers served by MSW's service worker at /mockServiceWorker.js.
import { setupWorker } from 'msw/browser';
import { createMswHandlers } from 'petstore-toolkit/msw';

/** Starts the worker; resolves once the page's requests to /v1 are answered by the mock. */
export async function startMocks(): Promise<void> {
  const petstore = createMswHandlers({ baseUrl: '/v1', seed: 42, count: 8 });
  await setupWorker(...petstore.handlers).start({ quiet: true, onUnhandledFrame: 'bypass' });
}
