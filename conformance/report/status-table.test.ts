import { describe, expect, it } from 'vitest';
import { listOperations } from '../../spec/index.ts';
import { matchOperation } from '../judge/operations.ts';
import { compareBaseline, parseBaseline } from '../run/baseline.ts';
import type { CaseResult, Exchange } from '../types.ts';
import { buildStatusTable } from './status-table.ts';

const URLS: Record<string, [string, string]> = {
  listPets: ['GET', 'http://h/v1/pets?limit=1'],
  createPet: ['POST', 'http://h/v1/pets'],
  getPet: ['GET', 'http://h/v1/pets/7'],
};

/** An exchange of `operationId` answered with `status`. */
function exchange(operationId: string, status: number): Exchange {
  const [method, url] = URLS[operationId]!;
  return {
    request: { method, url, headers: {} },
    response: { status, headers: {}, body: '', bytes: 0 },
    durationMs: 0,
  };
}

function result(
  id: string,
  outcome: CaseResult['outcome'],
  operationId = 'listPets',
  covers = [200],
  exchanges = covers.map((s) => exchange(operationId, s)),
): CaseResult {
  return {
    id,
    title: id,
    level: 'required',
    section: 's',
    operationId,
    covers,
    outcome,
    checks: [],
    exchanges,
    durationMs: 0,
  };
}

describe('status table and baseline', () => {
  it('lists every documented status and ignores skipped cases', () => {
    const table = buildStatusTable(
      listOperations(),
      [result('a', 'passed'), result('b', 'skipped'), result('c', 'failed', 'getPet', [404])],
      '/v1',
    );
    expect(table.find((e) => e.operationId === 'listPets' && e.status === 200)?.caseIds).toEqual(['a']);
    expect(table.find((e) => e.operationId === 'getPet' && e.status === 404)?.caseIds).toEqual(['c']);
    expect(table.find((e) => e.operationId === 'listPets' && e.status === 401)?.caseIds).toEqual([]);
  });

  it('lists the statuses a case got, not those it declares, and only from its own operation', () => {
    const results = [
      // Declares 200 but got only 400s (an out-of-range limit against a server that refuses it), and passed.
      result('outOfRange', 'passed', 'listPets', [200], [exchange('listPets', 400), exchange('listPets', 400)]),
      // A createPet case that reads the animal back: the getPet 200 is not a createPet 200, nor a getPet case.
      result('fetchable', 'passed', 'createPet', [201], [exchange('createPet', 201), exchange('getPet', 200)]),
      // An exchange that failed in transport exercised nothing.
      result(
        'cut',
        'failed',
        'getPet',
        [200],
        [{ ...exchange('getPet', 200), error: { code: 'PETSTORE_BODY_TOO_LARGE', message: 'm' } }],
      ),
    ];
    const entry = (op: string, status: number) =>
      buildStatusTable(listOperations(), results, '/v1').find((e) => e.operationId === op && e.status === status);
    // outOfRange passed with an answer it accepts (400): shown as answered otherwise, not as a gap.
    expect(entry('listPets', 200)).toMatchObject({ caseIds: [], declaredOnly: [], answeredOtherwise: ['outOfRange'] });
    expect(entry('createPet', 201)).toMatchObject({ caseIds: ['fetchable'], declaredOnly: [], answeredOtherwise: [] });
    expect(entry('getPet', 200)).toMatchObject({ caseIds: [], declaredOnly: ['cut'], answeredOtherwise: [] });
  });

  it('counts generated requests per (operation, status) when generation ran, and only then', () => {
    const counts = new Map([
      ['getPet 404', 12],
      ['createPet 400', 3],
    ]);
    const table = buildStatusTable(listOperations(), [result('a', 'passed')], '/v1', counts);
    const entry = (op: string, status: number) => table.find((e) => e.operationId === op && e.status === status);
    expect(entry('getPet', 404)).toMatchObject({ caseIds: [], generated: 12 });
    expect(entry('createPet', 400)?.generated).toBe(3);
    expect(entry('listPets', 200)).toMatchObject({ caseIds: ['a'], generated: 0 });
    expect(buildStatusTable(listOperations(), [result('a', 'passed')], '/v1')[0]).not.toHaveProperty('generated');
  });

  it('matches requests to operations below the base path, as the mock decodes them', () => {
    expect(matchOperation('GET', 'http://h/v1/%70ets', '/v1')?.operationId).toBe('listPets');
    expect(matchOperation('GET', 'http://h/api/v1/pets/7', '/api/v1/')?.operationId).toBe('getPet');
    expect(matchOperation('GET', 'http://h/v1/pets?status=sold', '/v1')?.operationId).toBe('listPets');
    expect(matchOperation('POST', 'http://h/v1/pets', '/v1')?.operationId).toBe('createPet');
    expect(matchOperation('GET', 'http://h/v1/pets/abc', '/v1')?.operationId).toBe('getPet');
    expect(matchOperation('GET', 'http://h/v1/pets/1/x', '/v1')?.operationId).toBeUndefined();
    expect(matchOperation('GET', 'http://h/v2/pets', '/v1')?.operationId).toBeUndefined();
  });

  it('reads three baseline shapes and names fixed cases', () => {
    expect(parseBaseline(['a'])).toEqual(['a']);
    expect(parseBaseline({ knownFailures: ['a'] })).toEqual(['a']);
    expect(
      parseBaseline({
        cases: [
          { id: 'a', outcome: 'failed' },
          { id: 'b', outcome: 'passed' },
        ],
      }),
    ).toEqual(['a']);
    expect(() => parseBaseline({})).toThrow();
    const cmp = compareBaseline([result('a', 'failed'), result('b', 'passed'), result('c', 'failed')], ['a', 'b']);
    expect(cmp).toEqual({ known: ['a'], fixed: ['b'], unexpected: ['c'] });
  });
});
