/**
 * runConformance selects through the one selection module: `cases` (allCases() or a subset) is what
 * `only`/`skip` choose from, bad `cases` are refused before any request, and generated checks are selected
 * by the same patterns whether generation is on or not.
 */
import { describe, expect, it } from 'vitest';
import { allCases, runConformance } from '../index.ts';
import { startFakePetstore } from './fake-petstore.ts';

describe('runConformance with cases', () => {
  it('runs the given subset, and only/skip choose within it', async () => {
    const fake = await startFakePetstore({});
    try {
      const cases = allCases().filter((c) => c.id.startsWith('getPet.'));
      const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, cases, skip: ['getPet.unknown'] });
      expect(report.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id).filter((id) => id !== 'getPet.unknown'));
      expect(report.deselected).toBe(1);
      expect(report.ok).toBe(true);
      const both = await runConformance({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        cases: cases.slice(0, 1),
        generate: 2,
        only: [cases[0]!.id, 'generated.listPets.no5xx'],
      });
      expect(both.cases.map((c) => c.id)).toEqual([cases[0]!.id, 'generated.listPets.no5xx']);
      expect(fake.requests.length).toBeGreaterThan(0);
    } finally {
      await fake.close();
    }
  });

  it('refuses cases that are not cases, an id twice, and a pattern outside them, before any request', async () => {
    const base = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' };
    const [one] = allCases();
    await expect(runConformance({ ...base, cases: [{} as never] })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
      message: /a case from allCases\(\)/,
    });
    await expect(runConformance({ ...base, cases: 'all' as never })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
    });
    await expect(runConformance({ ...base, cases: [one!, one!] })).rejects.toMatchObject({
      message: `cases holds ${one!.id} twice`,
    });
    await expect(runConformance({ ...base, cases: [one!], only: ['getPet.*'] })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
      message: /^--only getPet\.\* matches no case/,
    });
    await expect(runConformance({ ...base, cases: [] })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
      message: /generate is 0/,
    });
  });

  it('refuses a mistyped option before any request, naming it and the closest option', async () => {
    const base = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' };
    await expect(runConformance({ ...base, readonly: true } as never)).rejects.toMatchObject({
      name: 'ConformanceError',
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
      option: 'readonly',
      message: 'readonly: not an option; did you mean readOnly?',
    });
    await expect(runConformance({ ...base, timeout: 5, onlyy: ['x'] } as never)).rejects.toMatchObject({
      option: 'timeout',
      message: 'timeout: not an option; did you mean timeoutMs? (also onlyy: not an option; did you mean only?)',
    });
  });

  it('a skip that names only generated checks is a valid selection without generate', async () => {
    const fake = await startFakePetstore({});
    try {
      const report = await runConformance({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        only: ['listPets.ok'],
        skip: ['generated.getPet'],
      });
      expect(report.cases.map((c) => c.id)).toEqual(['listPets.ok']);
      expect(report.deselected).toBe(allCases().length - 1);
    } finally {
      await fake.close();
    }
  });
});
