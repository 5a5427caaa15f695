/**
 * One bug, one cause; the first failure hides no other; a case fails for what its title claims (issue 34 §4-6):
 * a server that writes a missing status as `null` (a serialiser's default) and reads JSON numbers as doubles has
 * exactly two bugs, and the report says so, each naming what is broken.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { findCauses } from '../judge/causes.ts';
import type { CaseResult, CheckResult, Exchange } from '../types.ts';
import { type FakePetstore, startFakePetstore } from './fake-petstore.ts';

let fake: FakePetstore | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the null-and-rounding server', () => {
  it('gets two causes: one for status: null on every operation, one for the rounded categoryId', async () => {
    fake = await startFakePetstore({ violations: ['statusNull', 'inexactCategoryRounded'], count: 20 });
    const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, generate: 60, seed: 1 });
    const causes = report.causes ?? [];
    const nulls = causes.filter((c) => c.statement.includes('Pet.status'));
    expect(nulls).toHaveLength(1);
    // Named by the field and the rule broken, with the value, on every operation it shows in.
    expect(nulls[0]!.statement).toMatch(
      /^`Pet\.status` must be .*\(got null\), in (listPets|createPet|getPet)(, \w+)* and \w+$/,
    );
    for (const op of ['listPets', 'createPet', 'getPet']) expect(nulls[0]!.statement).toContain(op);
    // The rounding was hidden behind the schema failure of the same case: now a cause of its own.
    const rounding = causes.filter((c) => /exact: categoryId 4503599627370496\.5 was stored changed/.test(c.statement));
    expect(rounding).toHaveLength(1);
    expect(rounding[0]!.cases).toContain('createPet.categoryId.inexact');
    expect(nulls[0]!.cases).toContain('createPet.categoryId.inexact');
    expect(causes.map((c) => c.statement)).toHaveLength(2);
    // A fixed run and 60 generated requests a check: generous, the machine is shared.
  }, 120_000);

  it('a generated `lost` that found its animal unchanged is a consequence of the null cause, not a failure of its own', async () => {
    fake = await startFakePetstore({ violations: ['statusNull'], count: 20 });
    // Seed 2, because with it a generated sequence creates an animal with no status and fetches it back later
    // (`lost`), which is what this test is about; seeds 1, 3-5 draw no such sequence in 60 requests. Fixed seeds
    // are deterministic against this fake; should the generator change, the first expectation below says why.
    const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, generate: 60, seed: 2 });
    const cause = (report.causes ?? []).find((c) => c.statement.includes('Pet.status'))!;
    const lost = report.cases.find((c) => c.id === 'generated.getPet.lost')!;
    expect(
      lost.outcome,
      'seed 2 no longer draws a later GET of a created animal sent with no status: pick a seed that does',
    ).toBe('failed');
    expect(cause.cases).not.toContain(lost.id);
    expect(cause.consequences).toContain(lost.id);
    expect(lost.consequence).toMatch(new RegExp(`^fails only because of ${cause.id}`));
    // How a generated failure repeated is information, never drawn as a failed check.
    for (const c of report.cases) expect(c.checks.filter((k) => k.name === 'replay' && !k.ok)).toEqual([]);
  });

  it('a generated preference not taken shows the request that did not take it, not the whole sequence', async () => {
    fake = await startFakePetstore({ choices: { refuseUnusualNames: true }, count: 20 });
    const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, generate: 60, seed: 1 });
    const advice = report.cases.find((c) => c.id === 'generated.createPet.validRefused')!;
    // Refusing an empty name is the server's call (name lengths are not shown): information, never a warning.
    expect(advice.outcome).toBe('info');
    expect(advice.exchanges).toHaveLength(1);
    expect(advice.exchanges[0]!.request.method).toBe('POST');
    expect(advice.exchanges[0]!.response?.status).toBe(400);
  });
});

describe('a status filter that lets through only what an invalid create stored', () => {
  const exchange = (method: string, url: string, status: number, json: unknown): Exchange => ({
    request: { method, url, headers: {}, ...(method === 'POST' ? { body: '{}' } : {}) },
    response: { status, headers: {}, body: JSON.stringify(json), bytes: 0, json },
    durationMs: 1,
  });
  const result = (id: string, operationId: string, checks: CheckResult[], exchanges: Exchange[]): CaseResult => ({
    id,
    title: id,
    level: 'required',
    section: 'Endpoints',
    operationId,
    covers: [],
    outcome: 'failed',
    checks,
    exchanges,
    durationMs: 1,
  });
  const create = result(
    'createPet.invalid.statusArray',
    'createPet',
    [{ name: 'status', ok: false, message: 'expected 400, got 201', rule: 'status is an array' }],
    [exchange('POST', 'http://x/v1/pets', 201, { id: 35, name: 'a', categoryId: 1, status: ['sold'] })],
  );
  const listing = (items: unknown[]) =>
    result(
      'listPets.status.sold',
      'listPets',
      [{ name: 'filter', ok: false, message: `1 of ${items.length} items have another status` }],
      [exchange('GET', 'http://x/v1/pets?status=sold', 200, items)],
    );

  it('is that create’s consequence, not a cause of its own (json-server reads ["sold"] as sold)', () => {
    // Another invalid animal that has the status asked for is listed first: it is not what the filter let through.
    const nameless = result(
      'createPet.invalid.missingName',
      'createPet',
      [{ name: 'status', ok: false, message: 'expected 400, got 201', rule: 'name is missing' }],
      [exchange('POST', 'http://x/v1/pets', 201, { id: 9, categoryId: 1, status: 'sold' })],
    );
    const causes = findCauses([
      nameless,
      create,
      listing([
        { id: 9, categoryId: 1, status: 'sold' },
        { id: 35, name: 'a', categoryId: 1, status: ['sold'] },
      ]),
    ]);
    expect(causes.map((c) => [c.statement, c.cases, c.consequences ?? []])).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/when name is missing$/), ['createPet.invalid.missingName'], []],
        [
          expect.stringMatching(/when status is an array$/),
          ['createPet.invalid.statusArray'],
          ['listPets.status.sold'],
        ],
      ]),
    );
    expect(causes).toHaveLength(2);
  });

  it('is a cause of its own when a valid Pet of another status is listed too', () => {
    const causes = findCauses([
      create,
      listing([
        { id: 35, name: 'a', categoryId: 1, status: ['sold'] },
        { id: 2, name: 'b', categoryId: 1, status: 'available' },
      ]),
    ]);
    expect(causes.map((c) => c.cases)).toEqual([['createPet.invalid.statusArray'], ['listPets.status.sold']]);
  });
});
