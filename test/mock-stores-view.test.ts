/**
 * One store model (issue 46): the in-process `pets` view (`size`, `get`,
 * `all`), `replacePets`, a create through the API and `reset()` read the same
 * on memory, SQLite and PostgreSQL; on a database each read is a promise, and
 * the same awaited code runs on all three.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../mock/core/mock.ts';
import type { PetStore } from '../mock/core/store.ts';
import { openStore } from '../mock/node/stores/open.ts';
import type { Pet } from '../spec/index.ts';
import { type Postgres, startPostgres } from './support/postgres.ts';

const KEY = 'petstore-dev-key';
const SEEDED: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Zoë 🐈', categoryId: 2 },
  { id: 3, name: 'Tom', categoryId: 3, status: 'sold' },
];
const BUDGET = 1024 * 1024;

let postgres: Postgres;
let dir: string;
const opened: PetStore[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'petstore-view-'));
}, 120_000);
afterAll(async () => {
  for (const store of opened) await store.close?.();
  await postgres?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => Promise<PetStore | undefined>][] = [
  ['memory', async () => undefined],
  ['sqlite', () => openStore(`sqlite:${join(dir, 'view.db')}`, BUDGET)],
  ['postgres', async () => openStore(await postgres.createDatabase(), BUDGET)],
];

describe.each(stores)('the pets view and reset on %s', (_name, open) => {
  it('read, replace, create and reset alike', async () => {
    const store = await open();
    if (store) opened.push(store);
    const mock = createMock({ pets: SEEDED, ...(store ? { sharedStore: store } : {}) });
    await mock.ready;
    expect(mock.pets.size).toBe(3);
    expect(await mock.pets.all()).toEqual(SEEDED);
    expect(await mock.pets.get(2)).toEqual(SEEDED[1]);
    expect(await mock.pets.get(99)).toBeUndefined();
    expect(Object.isFrozen(await mock.pets.get(1))).toBe(true);

    await mock.replacePets([{ id: 7, name: 'Only', categoryId: 5, status: 'pending' }]);
    expect(mock.pets.size).toBe(1);
    expect(await mock.pets.all()).toEqual([{ id: 7, name: 'Only', categoryId: 5, status: 'pending' }]);
    expect(await mock.pets.get(1)).toBeUndefined();

    const created = await mock.fetch({
      method: 'POST',
      url: '/v1/pets',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"New","categoryId":4}',
    });
    expect(created.status).toBe(201);
    expect(await mock.pets.get(8)).toEqual({ id: 8, name: 'New', categoryId: 4 });
    expect(mock.pets.size).toBe(2);

    await mock.reset();
    expect(mock.pets.size).toBe(3);
    expect(await mock.pets.all()).toEqual(SEEDED);
    expect(await mock.pets.get(8)).toBeUndefined();
  }, 60_000);
});
