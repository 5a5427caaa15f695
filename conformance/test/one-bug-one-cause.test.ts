/**
 * One bug, one cause; the first failure hides no other; a case fails for what its title claims (issue 34 §4-6):
 * a server that writes a missing status as `null` (a serialiser's default) and reads JSON numbers as doubles has
 * exactly two bugs, and the report says so, each naming what is broken.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
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
    const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, generate: 60, seed: 1 });
    const cause = (report.causes ?? []).find((c) => c.statement.includes('Pet.status'))!;
    const lost = report.cases.find((c) => c.id === 'generated.getPet.lost')!;
    expect(lost.outcome).toBe('failed');
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
