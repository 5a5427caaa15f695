import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../guard/redact.ts';
import type { CaseResult, Report } from '../types.ts';
import { outputRedactors, redactReport } from './redact-report.ts';

const KEY = 'sold';

/** A case that sent `status=sold` (the suite's words) and got the key echoed back (the server's). */
const result: CaseResult = {
  id: 'listPets.status.sold',
  title: 'GET /pets?status=sold returns only animals with status sold',
  level: 'required',
  section: 'Endpoints §1 List animals',
  operationId: 'listPets',
  covers: [200],
  outcome: 'failed',
  reason: 'filter: 1 of 1 items have another status',
  checks: [
    { name: 'status=sold: filter', ok: false, message: 'id 1 has status "sold"', details: ['/0/name is "sold"'] },
  ],
  exchanges: [
    {
      request: {
        method: 'GET',
        url: 'http://h/v1/pets?status=sold&limit=100',
        headers: { authorization: 'Bearer [REDACTED]' },
      },
      response: {
        status: 200,
        headers: { 'x-echo': 'Bearer sold', 'content-type': 'application/json' },
        body: '[{"id":1,"name":"sold","unsold":true}]',
        bytes: 38,
        json: [{ id: 1, name: 'sold', sold: 'c29sZA==' }],
      },
      error: { code: 'PETSTORE_X', message: 'echoed sold' },
      durationMs: 1,
    },
  ],
  durationMs: 1,
};

const report = {
  tool: 'petstore-conformance',
  runId: 'r',
  baseUrl: 'http://h/v1',
  cases: [result],
} as unknown as Report;

describe('redactReport', () => {
  const out = redactReport(report, 'http://h/v1', outputRedactors([KEY]));
  const c = out.cases[0]!;
  const ex = c.exchanges[0]!;

  it('hides every spelling of the key in what the server sent, keys of its JSON included', () => {
    expect(ex.response!.headers['x-echo']).toBe(`Bearer ${REDACTED}`);
    expect(ex.response!.body).toBe(`[{"id":1,"name":"${REDACTED}","un${REDACTED}":true}]`);
    expect(ex.response!.json).toEqual([{ id: 1, name: REDACTED, [REDACTED]: REDACTED }]);
    expect(ex.error!.message).toBe(`echoed ${REDACTED}`);
    expect(c.checks[0]!.message).toBe(`id 1 has status "${REDACTED}"`);
    expect(c.checks[0]!.details).toEqual([`/0/name is "${REDACTED}"`]);
  });

  it('leaves the suite words alone: id, title, check names, the path it requested', () => {
    expect(c.id).toBe('listPets.status.sold');
    expect(c.title).toBe(result.title);
    expect(c.checks[0]!.name).toBe('status=sold: filter');
    expect(ex.request.url).toBe('http://h/v1/pets?status=sold&limit=100');
  });

  it('never touches the data the checks read', () => {
    expect(result.exchanges[0]!.response!.headers['x-echo']).toBe('Bearer sold');
    expect(result.exchanges[0]!.response!.json).toEqual([{ id: 1, name: 'sold', sold: 'c29sZA==' }]);
  });

  it('hides the key in a consequence, which quotes what the server stored, and leaves out the stored things', () => {
    const stored = {
      ...result,
      consequence: 'fails only because of C1: the answer holds 1 animal ({"name":"sold"})',
      letIn: ['json {"name":"sold"}'],
    };
    const [hidden] = redactReport({ ...report, cases: [stored] }, 'http://h/v1', outputRedactors([KEY])).cases;
    expect(hidden!.consequence).toBe(`fails only because of C1: the answer holds 1 animal ({"name":"${REDACTED}"})`);
    expect(hidden).not.toHaveProperty('letIn');
  });
});
