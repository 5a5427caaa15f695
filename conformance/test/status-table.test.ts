/**
 * The cases cover the spec: by what they declare, and by what a run against a
 * correct server actually answered.
 */
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../spec/index.ts';
import { loadInvalidBodies } from '../cases/create-pet-invalid.ts';
import { allCases } from '../cases/index.ts';
import { runConformance } from '../index.ts';
import { startFakePetstore } from './fake-petstore.ts';

describe('the cases cover the spec', () => {
  const cases = allCases();
  const operations = listOperations();

  it('every documented (operation, status) was answered in a run against a correct server', async () => {
    const fake = await startFakePetstore();
    try {
      const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey });
      const documented = operations.flatMap((op) => op.statuses.map((s) => `${op.operationId} ${s}`));
      expect(report.statusTable.map((e) => `${e.operationId} ${e.status}`)).toEqual(documented);
      const missing = report.statusTable
        .filter((e) => e.caseIds.length === 0)
        .map((e) => `${e.operationId} ${e.status}`);
      expect(missing, `documented statuses no case got: ${missing.join(', ')}`).toEqual([]);
      // The table lists what happened: a case that only got 400s is not shown under 200.
      const listed200 = report.statusTable.find((e) => e.operationId === 'listPets' && e.status === 200)!;
      expect(listed200.caseIds).not.toContain('listPets.limit.outOfRange');
      // ...and a clean run reads clean: the 400 it got is an accepted alternative, not "expected but not answered".
      expect(listed200.answeredOtherwise).toContain('listPets.limit.outOfRange');
      expect(report.statusTable.flatMap((e) => e.declaredOnly)).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('every status the spec documents is declared by at least one required case', () => {
    const missing = operations.flatMap((op) =>
      op.statuses
        .filter(
          (s) => !cases.some((c) => c.level === 'required' && c.operationId === op.operationId && c.covers.includes(s)),
        )
        .map((s) => `${op.operationId} ${s}`),
    );
    expect(missing, `documented statuses no case covers: ${missing.join(', ')}`).toEqual([]);
  });

  it('cases claim only documented statuses of real operations', () => {
    const bad = cases.flatMap((c) => {
      const op = operations.find((o) => o.operationId === c.operationId);
      if (!op) return [`${c.id}: unknown operation ${c.operationId}`];
      return c.covers.filter((s) => !op.statuses.includes(s)).map((s) => `${c.id}: ${s}`);
    });
    expect(bad).toEqual([]);
  });

  it('ids are unique and stable-looking; every case names a section and a title', () => {
    const ids = cases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of cases) {
      expect(c.id).toMatch(/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/);
      expect(c.section.length).toBeGreaterThan(0);
      expect(c.title.length).toBeGreaterThan(0);
    }
  });

  it('the invalid-body table has every row the issue asks for', () => {
    const ids = loadInvalidBodies().map((b) => b.id);
    for (const id of [
      'missingName',
      'missingCategoryId',
      'nameNumber',
      'nameNull',
      'categoryIdFloat',
      'statusUnknown',
      'bodyArray',
      'bodyString',
      'bodyNumber',
      'bodyNull',
      'malformedJson',
      'emptyBody',
      // Issue 45: member names in another case, data after the value, every type for every field, beyond int64.
      'memberNamesUpperCase',
      'trailingText',
      'trailingValue',
      'nameTrue',
      'nameArray',
      'categoryIdArray',
      'categoryIdObject',
      'categoryIdBeyondInt64',
      'statusTrue',
      'statusFalse',
      'statusArray',
      'statusObject',
    ]) {
      expect(ids).toContain(id);
    }
    // The media type is advice (the contract never says another type is refused), so it is no row of the table.
    expect(ids).not.toContain('nonJsonContentType');
    // And two cases more: one whose body is bytes that are not UTF-8 (the table's rows are text), and that advice.
    expect(cases.filter((c) => c.id.startsWith('createPet.invalid.')).length).toBe(ids.length + 2);
  });
});
