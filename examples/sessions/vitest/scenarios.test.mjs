import { expect } from 'vitest';
import { api, control, pause } from './api.mjs';
import { test } from './petstore.fixture.mjs';

for (let i = 1; i <= 6; i++)
  test(`shows a forced 503, then the listing again (${i})`, async ({ petstore }) => {
    expect((await api(petstore, 'GET', '/pets?limit=100')).status).toBe(200);
    await control(petstore, 'POST', '/scenarios', { method: 'GET', path: '/v1/pets', status: 503 });
    await pause();
    expect((await api(petstore, 'GET', '/pets')).status).toBe(503);
    await pause();
    await control(petstore, 'DELETE', '/scenarios');
    const listed = await api(petstore, 'GET', '/pets?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(10);
  });
