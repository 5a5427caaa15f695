import { describe, expect, it } from 'vitest';
import type { Pet } from '../../spec/index.ts';
import { PetstoreMockError } from './errors.ts';
import { createMock } from './mock.ts';
import { createPetStore, DEFAULT_STORE_BYTES, PET_OVERHEAD_BYTES, petBytes, petJson, StoreFullError } from './store.ts';
import { CONTROL_JSON, expectError, JSON_HEADERS, json, setupMock } from './test-support.ts';

const pet = (id: number, name = 'Rex'): Pet => ({ id, name, categoryId: 1 });
const bytesOf = (pets: Pet[]) => pets.reduce((sum, p) => sum + petBytes(petJson(p.id, p)), 0);

describe('the store byte budget', () => {
  it('counts each pet as its JSON text plus the overhead, and refuses an add beyond the budget, changing nothing', () => {
    const seeded = [pet(1), pet(2)];
    const budget = bytesOf(seeded) + petBytes(petJson(3, pet(3)));
    const store = createPetStore(seeded, budget);
    expect(store.bytes).toBe(bytesOf(seeded));
    expect(petBytes('{}')).toBe(2 + PET_OVERHEAD_BYTES);
    expect(store.add({ name: 'Rex', categoryId: 1 }).id).toBe(3);
    expect(store.bytes).toBe(budget);
    expect(() => store.add({ name: 'R', categoryId: 1 })).toThrow(StoreFullError);
    expect(store.size).toBe(3);
    expect(store.nextId).toBe(4);
    expect(store.bytes).toBe(budget);
    store.reset();
    expect(store.bytes).toBe(bytesOf(seeded));
  });

  it('refuses seeded, replaced and reseeded pets beyond the budget, keeping what it held', () => {
    const pets = [pet(1), pet(2), pet(3)];
    expect(() => createPetStore(pets, bytesOf(pets) - 1)).toThrow(StoreFullError);
    const store = createPetStore([pet(1)], bytesOf(pets) - 1);
    expect(() => store.replace(pets)).toThrow(StoreFullError);
    expect(() => store.reseed(pets)).toThrow(StoreFullError);
    expect(store.all()).toEqual([pet(1)]);
    store.replace(pets.slice(0, 2));
    expect(store.size).toBe(2);
  });

  it('defaults to 256 MiB', () => {
    expect(DEFAULT_STORE_BYTES).toBe(256 * 1024 * 1024);
  });
});

describe('the budget through the mock', () => {
  it('answers a create beyond it 507 store_full, saying how to raise it; reset makes room again', async () => {
    const { call, mock } = setupMock({ storeBytes: 1_200 });
    const body = JSON.stringify({ name: 'x'.repeat(300), categoryId: 1 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call('POST', '/v1/pets', JSON_HEADERS, body));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 507, 507]);
    const message = expectError(answers[2]!, 507, 'store_full');
    expect(message).toContain('--store-bytes');
    expect(message).toContain('1200');
    expect(mock.pets.size).toBe(5);
    await call('POST', '/__control/reset', CONTROL_JSON);
    expect((await call('POST', '/v1/pets', JSON_HEADERS, body)).status).toBe(201);
  });

  it('refuses replacePets beyond it (PETSTORE_MOCK_STORE_FULL, 507 on PUT /__control/pets), keeping the pets', async () => {
    const { call, mock } = setupMock({ storeBytes: 500 });
    const many = Array.from({ length: 10 }, (_, i) => pet(i + 1));
    expect(() => mock.replacePets(many)).toThrow(
      expect.objectContaining({ code: 'PETSTORE_MOCK_STORE_FULL' }) as PetstoreMockError,
    );
    const put = await call('PUT', '/__control/pets', CONTROL_JSON, JSON.stringify(many));
    expectError(put, 507, 'store_full');
    expect(mock.pets.size).toBe(3);
    expect(json(await call('GET', '/__control/pets', CONTROL_JSON))).toHaveLength(3);
  });

  it('refuses to start with seeded pets beyond it, naming storeBytes; refuses a budget out of range', () => {
    expect(() => createMock({ pets: [pet(1), pet(2)], storeBytes: 10 })).toThrow(/^storeBytes is 10 bytes/);
    expect(() => createMock({ storeBytes: -1 })).toThrow(/storeBytes must be an integer from 0/);
    expect(() => createMock({ storeBytes: 1.5 })).toThrow(PetstoreMockError);
  });
});
