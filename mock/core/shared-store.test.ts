/**
 * A store a user writes for `sharedStore` (the public PetStore interface) may be a class whose methods read `this`:
 * the mock calls every one of them on the store, never as a function taken from it.
 */
import { describe, expect, it } from 'vitest';
import type { NewPet, Pet, PetStatus } from '../../spec/index.ts';
import { createMock } from './mock.ts';
import { createPetStore, type Listing, type PetStore, type StoredPet } from './store.ts';
import { AUTH, KEY } from './test-support.ts';

/** A store as a class, answering later as a database would, each call through `this`. */
class ClassStore implements PetStore {
  readonly #inner = createPetStore(undefined);
  get where(): string {
    return 'a class';
  }
  get size(): number {
    return this.#inner.size;
  }
  async open(pets: () => Pet[] | Promise<readonly Pet[]>): Promise<number> {
    return this.#inner.open(pets);
  }
  async add(input: NewPet): Promise<StoredPet> {
    return this.#inner.add(input);
  }
  async getJson(id: number): Promise<string | undefined> {
    return this.#inner.getJson(id);
  }
  async listing(limit: number, status?: PetStatus): Promise<Listing> {
    return this.#inner.listing(limit, status);
  }
  async allJson(): Promise<string> {
    return this.#inner.allJson();
  }
  async reset(): Promise<void> {
    this.#inner.reset();
  }
  async replace(pets: readonly Pet[]): Promise<void> {
    this.#inner.replace(pets);
  }
}

describe('a shared store written as a class', () => {
  it('answers the listing, a create and a read through its own methods', async () => {
    const mock = createMock({
      apiKeys: [KEY],
      sharedStore: new ClassStore(),
      pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }],
    });
    await mock.ready;
    const listing = await mock.fetch({ method: 'GET', url: '/v1/pets?status=sold', headers: AUTH });
    expect([listing.status, JSON.parse(listing.body)]).toEqual([
      200,
      [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }],
    ]);
    const created = await mock.fetch({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"Tom","categoryId":2}',
    });
    expect(created.status).toBe(201);
    const read = await mock.fetch({ method: 'GET', url: '/v1/pets/2', headers: AUTH });
    expect([read.status, JSON.parse(read.body)]).toEqual([200, { id: 2, name: 'Tom', categoryId: 2 }]);
  });
});
