import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { createRunHistory, requestKind } from './history.ts';

const BASE = 'http://127.0.0.1:1/v1';

function ex(method: string, path: string, status: number | undefined, json?: unknown, body?: string): Exchange {
  return {
    request: { method, url: BASE + path, headers: {}, ...(body === undefined ? {} : { body }) },
    ...(status === undefined
      ? { error: { code: 'ECONNRESET', message: 'reset' } }
      : { response: { status, headers: {}, body: JSON.stringify(json ?? null), bytes: 0, json } }),
    durationMs: 1,
  };
}

const create = (name: string, status: number | undefined, id?: number) =>
  ex(
    'POST',
    '/pets',
    status,
    id === undefined ? { code: 'internal' } : { id, name },
    JSON.stringify({ name, categoryId: 1 }),
  );

describe('the run history', () => {
  it('the kind of a request is its method, path and query parameter names', () => {
    expect(requestKind(ex('GET', '/pets?limit=7&status=sold&limit=2', 200).request)).toBe('GET /v1/pets?limit&status');
    expect(requestKind(ex('GET', '/pets', 200).request)).toBe('GET /v1/pets?');
  });

  it('counts an animal a listing shows under a name a non-2xx create of the run sent, with that create', () => {
    const h = createRunHistory('run-');
    h.note(create('run-a', 201, 1));
    const failed = create('run-b', 500);
    h.note(failed);
    h.note(create('other-c', 500));
    h.note(
      ex('GET', '/pets?status=sold', 200, [
        { id: 1, name: 'run-a' },
        { id: 2, name: 'run-b' },
        { id: 3, name: 'other-c' },
      ]),
    );
    // The 2xx one is not counted twice; one without the run's name is not the run's.
    expect(h.stored()).toEqual([{ id: 2, name: 'run-b', request: failed.request, answered: '500', order: 2 }]);
    expect(h.madeBy(1)?.answered).toBe('2xx');
    expect(h.madeBy(2)?.request).toBe(failed.request);
    expect(h.madeBy(3)).toBeUndefined();
    expect(h.made().map((m) => m.id)).toEqual([1, 2]);
  });

  it('a create that got no answer at all still names what it stored', () => {
    const h = createRunHistory('run-');
    h.note(create('run-a', undefined));
    h.note(ex('GET', '/pets/4', 200, { id: 4, name: 'run-a' }));
    expect(h.stored().map((s) => [s.id, s.answered])).toEqual([[4, 'ECONNRESET']]);
  });

  it('traces a failure to the stored create only when the same kind answered 2xx before it and never since', () => {
    const h = createRunHistory('run-');
    h.note(ex('GET', '/pets?limit=5', 200, []));
    const broke = create('run-b', 500);
    h.note(broke);
    h.note(ex('GET', '/pets?status=sold&limit=5', 200, [{ id: 9, name: 'run-b' }]));
    const dead = ex('GET', '/pets?limit=9', 500, { code: 'internal' });
    h.note(dead);
    expect(h.startedAfter(dead)?.request).toBe(broke.request);
    // Never answered 2xx: nothing shows it ever worked, so it is no consequence.
    const never = ex('GET', '/pets', 500, { code: 'internal' });
    h.note(never);
    expect(h.startedAfter(never)).toBeUndefined();
    // Answered 2xx again after the create: the create did not break it.
    h.note(ex('GET', '/pets?limit=1', 200, []));
    const flaky = ex('GET', '/pets?limit=2', 500, { code: 'internal' });
    h.note(flaky);
    expect(h.startedAfter(flaky)).toBeUndefined();
    // A 2xx is no failure, and an exchange the history never saw has no place.
    expect(h.startedAfter(ex('GET', '/pets?limit=3', 500))).toBeUndefined();
  });

  it('keeps at most 100 stored animals, whatever a listing holds', () => {
    const h = createRunHistory('run-');
    for (let i = 0; i < 150; i++) h.note(create(`run-${i}`, 500));
    h.note(
      ex(
        'GET',
        '/pets',
        200,
        Array.from({ length: 150 }, (_, i) => ({ id: i + 1, name: `run-${i}` })),
      ),
    );
    expect(h.stored()).toHaveLength(100);
  });
});
