import { expect } from 'vitest';
import { api, control, pause } from './api.mjs';
import { test } from './petstore.fixture.mjs';

for (let i = 1; i <= 6; i++)
  test(`holds exactly the pets it put, then the seeded ones after a reset (${i})`, async ({ petstore }) => {
    await control(petstore, 'PUT', '/pets', [{ id: 1, name: `r${i}`, categoryId: 1 }]);
    await pause();
    const listed = await api(petstore, 'GET', '/pets?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.map((p) => p.name)).toEqual([`r${i}`]);
    expect((await api(petstore, 'GET', '/pets/2')).status).toBe(404);
    await pause();
    await control(petstore, 'POST', '/reset');
    expect((await api(petstore, 'GET', '/pets/2')).status).toBe(200);
    expect((await api(petstore, 'GET', '/pets?limit=100')).body).toHaveLength(10);
  });
