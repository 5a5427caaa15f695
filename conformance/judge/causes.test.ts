import { describe, expect, it } from 'vitest';
import type { CaseResult, Exchange } from '../types.ts';
import { findCauses } from './causes.ts';

function exchange(method: string, path: string, status: number): Exchange {
  return {
    request: { method, url: `http://h/v1${path}`, headers: {} },
    response: { status, headers: {}, body: '', bytes: 0 },
    durationMs: 1,
  };
}

/** An exchange whose answer carries `json` (as the client parses it). */
function answered(method: string, path: string, status: number, json: unknown): Exchange {
  const base = exchange(method, path, status);
  return { ...base, response: { ...base.response!, body: JSON.stringify(json), json } };
}

/** A create the server answered 201 with `json` where the case required a 400: what it let in. */
function letIn(id: string, json: unknown): CaseResult {
  return failed(id, 'createPet', ['status', 'expected 400, got 201'], answered('POST', '/pets', 201, json));
}

function failed(
  id: string,
  operationId: string,
  check: [string, string],
  ex: Exchange,
  level: 'required' | 'advice' = 'required',
): CaseResult {
  return {
    id,
    title: id,
    level,
    section: 'S',
    operationId,
    covers: [],
    outcome: 'failed',
    checks: [{ name: check[0], ok: false, message: check[1] }],
    exchanges: [ex],
    durationMs: 1,
  };
}

describe('findCauses: one finding per cause', () => {
  it('groups the cases one wrong answer explains, most important first, and points each case at its cause', () => {
    const results = [
      failed('auth.getPet.missing', 'getPet', ['status', 'expected 401, got 200'], exchange('GET', '/pets/1', 200)),
      failed('auth.listPets.missing', 'listPets', ['status', 'expected 401, got 200'], exchange('GET', '/pets', 200)),
      failed('auth.listPets.wrongKey', 'listPets', ['status', 'expected 401, got 200'], exchange('GET', '/pets', 200)),
      failed('createPet.listed', 'createPet', ['no 5xx', 'server error 500'], exchange('GET', '/pets', 500)),
      failed('listPets.ok', 'listPets', ['no 5xx', 'server error 500'], exchange('GET', '/pets', 500)),
      failed(
        'listPets.limit.outOfRange',
        'listPets',
        ['limit=0: status', 'expected 400, got 200'],
        exchange('GET', '/pets?limit=0', 200),
        'advice',
      ),
      { ...failed('passes', 'listPets', ['x', 'y'], exchange('GET', '/pets', 200)), outcome: 'passed' as const },
    ];
    const causes = findCauses(results);
    expect(causes.map((c) => [c.id, c.statement, c.cases])).toEqual([
      ['C1', 'GET /v1/pets answers a server error (500)', ['createPet.listed', 'listPets.ok']],
      // One auth behaviour (no key check) on every operation and every kind of bad key: one cause.
      [
        'C2',
        'GET /v1/pets/{petId} and GET /v1/pets answer 200 where the contract requires 401',
        ['auth.getPet.missing', 'auth.listPets.missing', 'auth.listPets.wrongKey'],
      ],
      // The contract lists no 400 for listPets: the line says whose rule it is, and its basis.
      [
        'C3',
        "GET /v1/pets answers 200 where the suite accepts only 400 (the contract lists 200, 401 for listPets; 400 is the suite's reading of S)",
        ['listPets.limit.outOfRange'],
      ],
    ]);
    expect(causes[2]!.level).toBe('advice');
    expect(causes[0]!.request?.url).toBe('http://h/v1/pets');
    expect(results.map((r) => r.cause)).toEqual(['C2', 'C2', 'C2', 'C1', 'C1', 'C3', undefined]);
  });

  it('a listing holding an id twice because a create was given an id already held is that cause’s consequence', () => {
    const results = [
      failed(
        'createPet.clientId.noOverwrite',
        'createPet',
        ['new id', 'the service answered with id 2; the existing animal has id 2'],
        exchange('POST', '/pets', 201),
      ),
      failed(
        'generated.listPets.unique',
        'listPets',
        ['unique ids', 'ids listed more than once: 2'],
        exchange('GET', '/pets', 200),
      ),
      failed(
        'listPets.other',
        'listPets',
        ['unique ids', 'ids listed more than once: 7'],
        exchange('GET', '/pets', 200),
      ),
    ];
    const causes = findCauses(results);
    expect(causes.map((c) => [c.statement, c.cases, c.consequences])).toEqual([
      [
        'createPet: new id: the service answered with id 2; the existing animal has id 2',
        ['createPet.clientId.noOverwrite'],
        ['generated.listPets.unique'],
      ],
      // An id no create clashed on stays a finding of its own.
      ['listPets: unique ids: ids listed more than once: 7', ['listPets.other'], undefined],
    ]);
    expect(results[1]!.consequence).toBe(
      'fails only because of C1: id 2 is listed twice because the service gave a created animal an id it already held',
    );
  });

  it('folds every check that read back a categoryId beyond 2^53 into one cause, whichever check saw it', () => {
    const post = (body: string): Exchange => ({
      ...exchange('POST', '/pets', 201),
      request: { method: 'POST', url: 'http://h/v1/pets', headers: {}, body },
    });
    const results = [
      failed(
        'createPet.categoryId.beyond2pow53',
        'createPet',
        ['exact', 'categoryId 9007199254740993 was not echoed exactly'],
        post('{"name":"a","categoryId":9007199254740993}'),
      ),
      failed(
        'generated.createPet.echo',
        'createPet',
        ['echo', 'the Pet differs from what was sent'],
        post('{"name":"","categoryId":13372609825339661}'),
      ),
      failed(
        'generated.createPet.fetchable',
        'createPet',
        ['same animal', 'id 3 is not the animal created'],
        post('{"name":"","categoryId":-9007199254740995}'),
      ),
      // A safe big number stays apart.
      failed(
        'generated.createPet.other',
        'createPet',
        ['echo', 'the Pet differs from what was sent'],
        post('{"name":"x","categoryId":9007199254740991}'),
      ),
    ];
    const causes = findCauses(results);
    expect(causes[0]!.statement).toBe(
      '`categoryId` beyond 2^53 is not kept as sent (e.g. 9007199254740993): it is rounded or changed when a pet is created',
    );
    expect(causes[0]!.cases).toEqual([
      'createPet.categoryId.beyond2pow53',
      'generated.createPet.echo',
      'generated.createPet.fetchable',
    ]);
    expect(causes[1]!.cases).toEqual(['generated.createPet.other']);
  });

  it('keeps checks that fail with different messages apart, and the same message with other numbers together', () => {
    const results = [
      failed('a', 'listPets', ['filter', '3 of 7 items have another status'], exchange('GET', '/pets', 200)),
      failed('b', 'listPets', ['filter', '5 of 9 items have another status'], exchange('GET', '/pets', 200)),
      failed('c', 'listPets', ['unique ids', 'ids listed more than once: 4'], exchange('GET', '/pets', 200)),
    ];
    expect(findCauses(results).map((c) => c.cases)).toEqual([['a', 'b'], ['c']]);
  });

  it('points a listing that fails only because it holds an animal an invalid create let in at that create’s cause', () => {
    const good = { id: 1, name: 'a', categoryId: 1 };
    const bad = { id: 7, name: null, categoryId: 1 };
    const stranger = { id: 8, categoryId: 1 };
    const schema: [string, string] = ['schema Pets', 'body is not a valid Pets'];
    const results = [
      letIn('createPet.invalid.nameNull', bad),
      failed('listPets.ok', 'listPets', schema, answered('GET', '/pets', 200, [good, bad])),
      // Holds an invalid animal nobody here let in: a finding of its own.
      failed('listPets.limit.max', 'listPets', schema, answered('GET', '/pets?limit=100', 200, [good, bad, stranger])),
      // A labelled schema check of a variation reads the same.
      failed(
        'createPet.listed',
        'createPet',
        ['status=available: schema Pets', 'body is not a valid Pets'],
        answered('GET', '/pets?status=available', 200, [bad]),
      ),
    ];
    const causes = findCauses(results);
    expect(causes.map((c) => [c.id, c.cases, c.consequences])).toEqual([
      ['C1', ['createPet.invalid.nameNull'], ['listPets.ok', 'createPet.listed']],
      ['C2', ['listPets.limit.max'], undefined],
    ]);
    expect(results.map((r) => r.cause)).toEqual(['C1', 'C1', 'C2', 'C1']);
    expect(results[1]!.consequence).toBe(
      'fails only because of C1: the answer holds 1 animal (id 7) that the server created from a request it should have refused',
    );
    expect(results[0]!.consequence).toBeUndefined();
    expect(results[2]!.consequence).toBeUndefined();
    // Several let-in animals are counted and the first ids named.
    const more = [9, 10, 11, 12, 13, 14].map((id) => ({ ...bad, id }));
    const many = [
      ...more.map((pet) => letIn(`createPet.invalid.${pet.id}`, pet)),
      failed('listPets.ok', 'listPets', schema, answered('GET', '/pets', 200, [good, ...more])),
    ];
    findCauses(many);
    expect(many.at(-1)!.consequence).toBe(
      'fails only because of C1: the answer holds 6 animals (ids 9, 10, 11, 12, 13, …) that the server created from a request it should have refused',
    );
  });

  it('recognises a stored thing with no id by its whole JSON (json-server keeps a posted array as it is)', () => {
    const stored = [{ name: 'a', categoryId: 1 }];
    const results = [
      letIn('createPet.invalid.bodyArray', stored),
      failed(
        'listPets.ok',
        'listPets',
        ['schema Pets', 'body is not a valid Pets'],
        answered('GET', '/pets', 200, [stored]),
      ),
      // The same array with another name is not what was stored.
      failed(
        'listPets.limit.max',
        'listPets',
        ['schema Pets', 'body is not a valid Pets'],
        answered('GET', '/pets', 200, [[{ name: 'b', categoryId: 1 }]]),
      ),
    ];
    const causes = findCauses(results);
    expect(causes.map((c) => [c.cases, c.consequences])).toEqual([
      [['createPet.invalid.bodyArray'], ['listPets.ok']],
      [['listPets.limit.max'], undefined],
    ]);
    expect(results[1]!.consequence).toBe(
      'fails only because of C1: the answer holds 1 animal ([{"name":"a","categoryId":1}]) that the server created from a request it should have refused',
    );
  });

  it('shows a variation’s cause with the request that carried the variation, not the case’s last one', () => {
    const post = (body: string): Exchange => ({
      ...exchange('POST', '/pets', 201),
      request: { method: 'POST', url: 'http://h/v1/pets', headers: {}, body },
    });
    const c = failed(
      'createPet.categoryId.inexact',
      'createPet',
      ['categoryId 4503599627370496.5: exact', 'stored changed'],
      post('{"categoryId":4503599627370496.5}'),
    );
    c.exchanges.push(post('{"categoryId":1e-400}'));
    expect(findCauses([c])[0]!.request?.body).toBe('{"categoryId":4503599627370496.5}');
    const plain = failed('createPet.full', 'createPet', ['echo', 'differs'], post('{"a":1}'));
    plain.exchanges.push(post('{"b":2}'));
    expect(findCauses([plain])[0]!.request?.body).toBe('{"b":2}');
  });
});
