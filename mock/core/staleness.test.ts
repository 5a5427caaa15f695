/**
 * Whatever the mock reuses between requests (a listing's text, a whole answer)
 * must never be stale: writes of every kind interleaved with reads, every
 * answer compared with a model that keeps nothing between requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listPetsLimit, type Pet, type PetStatus, petStatuses } from '../../spec/index.ts';
import { createMock } from './mock.ts';
import type { MockCore } from './petstore-mock.ts';
import type { ApiResponse } from './responses.ts';

const KEY = 'staleness-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const STATUSES = petStatuses();
const DEFAULT_LIMIT = listPetsLimit().default;
/** Before getPet's sunset, and after it: getPet is served by the first, removed (404) from the second. */
const AS_OF = { served: '2030-01-01', removed: '2031-01-01' } as const;

const SEEDED: Pet[] = [
  { id: 1, name: 'Ada', categoryId: 1, status: 'available' },
  { id: 2, name: 'Bo', categoryId: 2, status: 'sold' },
  { id: 4, name: 'Cy', categoryId: 1 },
];

type Op =
  | { kind: 'list'; limit?: number; status?: PetStatus }
  | { kind: 'get'; id: number }
  | { kind: 'create'; name: string; categoryId: number; status?: PetStatus }
  | { kind: 'reset'; via: 'method' | 'control' }
  | { kind: 'replace'; pets: Pet[]; via: 'method' | 'control' }
  | { kind: 'scenario'; status: 503 | 429 }
  | { kind: 'unscenario' };

/** What the mock should hold and answer, recomputed from scratch for every read. */
class Model {
  pets: Pet[] = [...SEEDED];
  nextId = 5;
  /** Scenarios on GET /v1/pets, oldest first: the first answers. */
  scenarios: { id: string; status: number }[] = [];

  listing(limit: number, status: PetStatus | undefined): string {
    const found = this.pets.filter((p) => status === undefined || p.status === status).slice(0, limit);
    return JSON.stringify(found);
  }

  hold(pets: Pet[]): void {
    this.pets = [...pets].sort((a, b) => a.id - b.id);
    this.nextId = this.pets.length === 0 ? 1 : this.pets.at(-1)!.id + 1;
  }
}

const status = fc.option(fc.constantFrom(...STATUSES), { nil: undefined });
const pet = (id: number) =>
  fc
    .record({ name: fc.string({ maxLength: 8 }), categoryId: fc.integer({ min: -5, max: 5 }), status })
    .map(
      ({ name, categoryId, status: s }): Pet =>
        s === undefined ? { id, name, categoryId } : { id, name, categoryId, status: s },
    );
const pets = fc
  .uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 6 })
  .chain((ids) => (ids.length === 0 ? fc.constant([] as Pet[]) : fc.tuple(...ids.map(pet))));

const op: fc.Arbitrary<Op> = fc.oneof(
  // Reads weigh most, and few distinct ones, so that the same listing comes back while nothing changed.
  {
    weight: 6,
    arbitrary: fc.record(
      {
        kind: fc.constant('list' as const),
        limit: fc.option(fc.constantFrom(1, 2, 3, 20, 100), { nil: undefined }),
        status,
      },
      { requiredKeys: ['kind'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('get' as const), id: fc.integer({ min: 0, max: 12 }) }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('create' as const),
        name: fc.string({ maxLength: 8 }),
        categoryId: fc.integer({ min: 0, max: 9 }),
        status,
      },
      { requiredKeys: ['kind', 'name', 'categoryId'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reset' as const),
      via: fc.constantFrom('method' as const, 'control' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      pets,
      via: fc.constantFrom('method' as const, 'control' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('scenario' as const),
      status: fc.constantFrom(503 as const, 429 as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'unscenario' as const }) },
);

function answer(mock: MockCore, method: string, url: string, body?: unknown): ApiResponse {
  const headers: Record<string, string> = url.startsWith('/v1') ? { ...AUTH } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = mock.fetch({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response instanceof Promise) throw new Error('the mock waited: no latency is set');
  // The bytes an adapter sends instead of the body, when the mock kept them, are the body's.
  if (response.bytes !== undefined) expect(new TextDecoder().decode(response.bytes)).toBe(response.body);
  return response;
}

/** Applies `o` to both mocks and the model; checks each mock's answer to a read against the model. */
function step(mocks: Record<keyof typeof AS_OF, MockCore>, model: Model, o: Op): void {
  const all = Object.entries(mocks) as [keyof typeof AS_OF, MockCore][];
  switch (o.kind) {
    case 'list': {
      const query = [o.status && `status=${o.status}`, o.limit && `limit=${o.limit}`].filter(Boolean).join('&');
      const scenario = model.scenarios[0];
      for (const [, mock] of all) {
        const got = answer(mock, 'GET', `/v1/pets${query ? `?${query}` : ''}`);
        if (scenario) expect(got.status).toBe(scenario.status);
        else
          expect({ status: got.status, body: got.body }).toEqual({
            status: 200,
            body: model.listing(o.limit ?? DEFAULT_LIMIT, o.status),
          });
      }
      return;
    }
    case 'get': {
      const held = model.pets.find((p) => p.id === o.id);
      for (const [asOf, mock] of all) {
        const got = answer(mock, 'GET', `/v1/pets/${o.id}`);
        if (asOf === 'removed') expect(got.status).toBe(404);
        else
          expect({ status: got.status, body: held ? got.body : '' }).toEqual({
            status: held ? 200 : 404,
            body: held ? JSON.stringify(held) : '',
          });
      }
      return;
    }
    case 'create': {
      const input = { name: o.name, categoryId: o.categoryId, ...(o.status === undefined ? {} : { status: o.status }) };
      const created: Pet = { id: model.nextId++, ...input };
      model.pets.push(created);
      for (const [, mock] of all) expect(answer(mock, 'POST', '/v1/pets', input).body).toBe(JSON.stringify(created));
      return;
    }
    case 'reset':
      model.hold(SEEDED);
      model.scenarios = [];
      for (const [, mock] of all) {
        if (o.via === 'method') mock.reset();
        else expect(answer(mock, 'POST', '/__control/reset').status).toBe(200);
      }
      return;
    case 'replace':
      model.hold(o.pets);
      for (const [, mock] of all) {
        if (o.via === 'method') mock.replacePets(o.pets);
        else expect(answer(mock, 'PUT', '/__control/pets', o.pets).status).toBe(200);
      }
      return;
    case 'scenario': {
      let id = '';
      for (const [, mock] of all) id = mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: o.status }).id;
      model.scenarios.push({ id, status: o.status });
      return;
    }
    case 'unscenario': {
      const gone = model.scenarios.shift();
      if (gone) for (const [, mock] of all) expect(mock.scenarios.remove(gone.id)).toBe(true);
    }
  }
}

function mocks(): Record<keyof typeof AS_OF, MockCore> {
  const make = (asOf: string) => createMock({ apiKeys: [KEY], pets: SEEDED, asOf, corsOrigins: ['*'] });
  return { served: make(AS_OF.served), removed: make(AS_OF.removed) };
}

describe('nothing the mock reuses is ever stale', () => {
  it('answers every read as a model that keeps nothing does, whatever writes come between', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const model = new Model();
        const both = mocks();
        for (const o of ops) step(both, model, o);
      }),
      { numRuns: 80 },
    );
    // About 0.4 s on an idle machine; the machine is shared.
  }, 30_000);

  // One listing read, one write, the same listing again: each write path on its own, so that a path whose
  // invalidation is missing is named by its test.
  const writes: [string, Op][] = [
    ['a create through the API', { kind: 'create', name: 'Dot', categoryId: 3, status: 'sold' }],
    ['reset()', { kind: 'reset', via: 'method' }],
    ['POST /__control/reset', { kind: 'reset', via: 'control' }],
    [
      'replacePets()',
      { kind: 'replace', pets: [{ id: 9, name: 'Eve', categoryId: 1, status: 'sold' }], via: 'method' },
    ],
    ['PUT /__control/pets', { kind: 'replace', pets: [{ id: 8, name: 'Fay', categoryId: 1 }], via: 'control' }],
    ['a scenario added', { kind: 'scenario', status: 503 }],
  ];
  it.each(writes)('a listing read again after %s is the new one', (_, write) => {
    const model = new Model();
    const both = mocks();
    // A state the reset has to undo, and a scenario for the removal to take away.
    step(both, model, { kind: 'create', name: 'Gil', categoryId: 2, status: 'sold' });
    for (const status of [undefined, 'sold' as const]) step(both, model, { kind: 'list', limit: 100, status });
    step(both, model, write);
    for (const status of [undefined, 'sold' as const]) step(both, model, { kind: 'list', limit: 100, status });
    step(both, model, { kind: 'unscenario' });
    for (const status of [undefined, 'sold' as const]) step(both, model, { kind: 'list', limit: 100, status });
  });

  it('a getPet answer of a mock whose asOf removed it never comes from one that serves it, and back', () => {
    const both = mocks();
    for (const round of [1, 2])
      for (const [asOf, mock] of Object.entries(both))
        expect({ round, asOf, status: answer(mock, 'GET', '/v1/pets/1').status }).toEqual({
          round,
          asOf,
          status: asOf === 'removed' ? 404 : 200,
        });
  });
});
