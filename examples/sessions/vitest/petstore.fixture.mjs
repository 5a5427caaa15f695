// The fixture: every test gets a session of its own on the one mock, so its pets, resets and forced
// failures are its own, whatever runs beside it. `petstore.url` is the session's base URL (…/sessions/{name}/v1),
// `petstore.control` its control endpoints (reset, scenarios, pets, requests, coverage).
import { test as base, inject } from 'vitest';

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixture's dependencies from this pattern.
  petstore: async ({}, use) => {
    const root = inject('petstoreUrl').replace(/\/v1$/, '');
    const made = await fetch(`${root}/__control/sessions`, { method: 'POST' });
    if (made.status !== 201) throw new Error(`no session: ${made.status} ${await made.text()}`);
    const session = await made.json();
    await use(session);
    await fetch(`${root}/__control/sessions/${session.name}`, { method: 'DELETE' });
  },
});
