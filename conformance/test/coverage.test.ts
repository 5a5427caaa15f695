import { describe, expect, it } from 'vitest';
import { listOperations } from '../../spec/index.ts';
import { allCases } from '../cases/index.ts';
import { loadInvalidBodies } from '../cases/create-pet-invalid.ts';

describe('the cases cover the spec', () => {
  const cases = allCases();
  const operations = listOperations();

  it('every status the spec documents is covered by at least one required case', () => {
    const missing = operations.flatMap((op) =>
      op.statuses.filter((s) => !cases.some((c) => c.level === 'required' && c.operationId === op.operationId && c.covers.includes(s))).map((s) => `${op.operationId} ${s}`),
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
    for (const id of ['missingName', 'missingCategoryId', 'nameNumber', 'nameNull', 'categoryIdFloat', 'statusUnknown', 'bodyArray', 'bodyString', 'bodyNumber', 'bodyNull', 'malformedJson', 'emptyBody', 'nonJsonContentType']) {
      expect(ids).toContain(id);
    }
    expect(cases.filter((c) => c.id.startsWith('createPet.invalid.')).length).toBe(ids.length);
  });
});
