// The mock's MSW handlers answering a page's fetch in Playwright, through MSW's own
// binding @msw/playwright (it routes the browser context's requests through the
// handlers from the test's process: no service worker, no port). The controls are
// the same as in every other adapter: scenarios, the request journal, reset().
//
//   npm install -D petstore-toolkit msw @msw/playwright playwright-core
//   node petstore.mjs            # CHROMIUM=/path/to/chromium to pick the browser
//
// With @playwright/test, the same three calls go in a fixture: defineNetworkFixture
// in it, network.enable() before use(network), network.disable() after.
import { defineNetworkFixture } from '@msw/playwright';
import { HttpResponse, http } from 'msw';
import { createMswHandlers } from 'petstore-toolkit/msw';
import { chromium } from 'playwright-core';

const APP = 'http://app.test';
const petstore = createMswHandlers({ baseUrl: `${APP}/v1`, count: 5, apiKeys: ['test-key'] });
// The app's own page, for the example only: a real test opens the app under test.
const page = http.get(`${APP}/`, () => HttpResponse.html('<!doctype html><title>app</title>'));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext();
  const network = defineNetworkFixture({
    context,
    handlers: [...petstore.handlers, page],
    onUnhandledRequest: 'error',
  });
  await network.enable();
  const tab = await context.newPage();
  await tab.goto(`${APP}/`);
  /** What the page's own fetch gets from `path`. */
  const call = (path, init = {}) =>
    tab.evaluate(
      async ([path, init]) => {
        const res = await fetch(path, { ...init, headers: { authorization: 'Bearer test-key', ...init.headers } });
        return { status: res.status, body: await res.json() };
      },
      [path, init],
    );

  const listed = await call('/v1/pets');
  petstore.scenarios.add({ method: 'GET', path: '/v1/pets', status: 503, times: 1 });
  const forced = await call('/v1/pets');
  const after = await call('/v1/pets');
  const created = await call('/v1/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  const journal = petstore.requests({ method: 'GET', path: '/v1/pets' }).map((entry) => entry.status);
  petstore.reset();
  const reset = await call('/v1/pets');
  await network.disable();
  console.log(
    JSON.stringify({
      listed: [listed.status, listed.body.length],
      forced: [forced.status, forced.body.code],
      after: after.status,
      created: [created.status, created.body.name],
      journal,
      reset: [reset.status, reset.body.length],
    }),
  );
} finally {
  await browser.close();
}
