// The fixture: a session per worker on the one mock, made before the worker's first test and ended after its
// last; every browser context of the worker sends its name in Petstore-Session (extraHTTPHeaders), so the app's
// own requests land in it without a change to the app. `petstore.control` is that session's control endpoints.
// For a session per test instead, drop `{ scope: 'worker' }`.
import { test as base } from '@playwright/test';

export const test = base.extend({
  petstore: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const root = process.env.PETSTORE_URL.replace(/\/v1$/, '');
      const made = await fetch(`${root}/__control/sessions`, { method: 'POST' });
      if (made.status !== 201) throw new Error(`no session: ${made.status} ${await made.text()}`);
      const session = await made.json();
      await use(session);
      await fetch(`${root}/__control/sessions/${session.name}`, { method: 'DELETE' });
    },
    { scope: 'worker' },
  ],
  extraHTTPHeaders: async ({ petstore }, use) => use({ 'Petstore-Session': petstore.name }),
});

export { expect } from '@playwright/test';
