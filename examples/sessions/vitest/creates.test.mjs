import { expect } from 'vitest';
import { api, pause } from './api.mjs';
import { test } from './petstore.fixture.mjs';

for (let i = 1; i <= 6; i++)
  test(`adds two pets and lists exactly them after the ten seeded (${i})`, async ({ petstore }) => {
    const before = await api(petstore, 'GET', '/pets?limit=100');
    expect(before.status).toBe(200);
    expect(before.body).toHaveLength(10);
    for (const name of [`c${i}-a`, `c${i}-b`]) {
      expect((await api(petstore, 'POST', '/pets', { name, categoryId: 1 })).status).toBe(201);
      await pause();
    }
    const after = await api(petstore, 'GET', '/pets?limit=100');
    expect(after.status).toBe(200);
    expect(after.body.map((p) => p.name)).toEqual([...before.body.map((p) => p.name), `c${i}-a`, `c${i}-b`]);
    expect((await api(petstore, 'GET', '/pets/12')).body.name).toBe(`c${i}-b`);
  });
