import { describe, expect, it } from 'vitest';
import { allCases } from '../cases/index.ts';
import { generatedChecks } from '../generate/catalog.ts';
import { matchesPattern, select } from './select.ts';

describe('matchesPattern', () => {
  it('matches exact ids, prefixes at a dot, and * wildcards', () => {
    expect(matchesPattern('listPets', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.ok', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.o', 'listPets.ok')).toBe(false);
    expect(matchesPattern('auth.*.basic', 'auth.getPet.basic')).toBe(true);
    expect(matchesPattern('*.status.*', 'listPets.status.sold')).toBe(true);
    expect(matchesPattern('auth.*', 'listPets.ok')).toBe(false);
  });
});

describe('select', () => {
  const ids = (only: string[], skip: string[] = []): string[] => {
    const s = select({ only, skip });
    return [...s.cases, ...s.generated].map((c) => c.id);
  };

  it('only keeps, skip removes, for fixed cases and generated checks alike', () => {
    const picked = ids(['getPet'], ['getPet.malformed']);
    expect(picked).toContain('getPet.existing');
    expect(picked).not.toContain('getPet.malformed');
    expect(picked.every((id) => id.startsWith('getPet.'))).toBe(true);
    expect(ids(['generated'])).toEqual(generatedChecks().map((c) => c.id));
    expect(ids(['generated.listPets.limit'])).toEqual(['generated.listPets.limit']);
    expect(ids(['generated.*.no5xx'], ['generated.getPet'])).toEqual([
      'generated.listPets.no5xx',
      'generated.createPet.no5xx',
    ]);
  });

  it('keeps everything without patterns, and counts what it left out', () => {
    const all = select({});
    expect(all.cases.map((c) => c.id)).toEqual(allCases().map((c) => c.id));
    expect(all.generated).toHaveLength(generatedChecks().length);
    const some = select({ only: ['listPets'] });
    expect(some.casesLeftOut).toBe(allCases().length - some.cases.length);
    expect(some.generatedLeftOut).toBe(generatedChecks().length);
  });

  it('selects from the cases it is given', () => {
    const few = allCases().slice(0, 2);
    const s = select({}, { cases: few, generated: [] });
    expect(s.cases).toEqual(few);
    expect(() => select({ only: ['getPet'] }, { cases: few, generated: [] })).toThrow(/--only getPet matches no case/);
  });

  it('names every pattern that matches no case, even when others match', () => {
    expect(() => select({ only: ['listPets', 'nosuch'], skip: ['alsoNot'] })).toThrow(
      '--only nosuch, --skip alsoNot match no case (see --list for the case ids)',
    );
    expect(() => select({ only: ['nosuch'] })).toThrow(
      expect.objectContaining({ code: 'PETSTORE_CONFORMANCE_NOTHING_SELECTED' }),
    );
  });

  it('refuses a selection that leaves nothing, and accepts one that leaves something', () => {
    expect(() => select({ only: ['listPets.ok'], skip: ['listPets'] })).toThrow(
      /^no case selected: --skip listPets leaves out every case/,
    );
    expect(() => select({ only: ['listPets'], skip: ['listPets.ok'] })).not.toThrow();
    expect(() => select({ only: ['generated'] })).not.toThrow();
  });
});
