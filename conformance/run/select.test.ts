import { describe, expect, it } from 'vitest';
import { allCases } from '../cases/index.ts';
import { generatedProperties } from '../generate/catalog.ts';
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
    const picked = ids(['getPet.*'], ['getPet.malformed']);
    expect(picked).toContain('getPet.existing');
    expect(picked).not.toContain('getPet.malformed');
    expect(picked.every((id) => id.startsWith('getPet.'))).toBe(true);
    expect(ids(['generated'])).toEqual(generatedProperties().map((c) => c.id));
    expect(ids(['generated.listPets.limit'])).toEqual(['generated.listPets.limit']);
    expect(ids(['generated.*.no5xx'], ['generated.getPet'])).toEqual([
      'generated.listPets.no5xx',
      'generated.createPet.no5xx',
    ]);
  });

  it('keeps everything without patterns, and counts what it left out', () => {
    const all = select({});
    expect(all.cases.map((c) => c.id)).toEqual(allCases().map((c) => c.id));
    expect(all.generated).toHaveLength(generatedProperties().length);
    const some = select({ only: ['listPets.*'] });
    expect(some.casesLeftOut).toBe(allCases().length - some.cases.length);
    expect(some.generatedLeftOut).toBe(generatedProperties().length);
  });

  it('selects from the cases it is given', () => {
    const few = allCases().slice(0, 2);
    const s = select({}, { cases: few, generated: [] });
    expect(s.cases).toEqual(few);
    expect(() => select({ only: ['getPet'] }, { cases: few, generated: [] })).toThrow(/--only getPet matches no case/);
  });

  it('selects by level, by operation (its auth and generated checks too) and by the spec tag', () => {
    const every = [...allCases(), ...generatedProperties()];
    const where = (keep: (c: (typeof every)[number]) => boolean) => every.filter(keep).map((c) => c.id);
    expect(ids(['required'])).toEqual(where((c) => c.level === 'required'));
    expect(ids(['advice'])).toEqual(where((c) => c.level === 'advice'));
    expect(ids(['advice'])).toContain('auth.wwwAuthenticate');
    const getPet = ids(['getPet']);
    expect(getPet).toEqual(where((c) => c.operationId === 'getPet'));
    expect(getPet).toEqual(
      expect.arrayContaining(['getPet.unknown', 'auth.getPet.wrongKey', 'generated.getPet.no5xx']),
    );
    expect(ids(['getPet'], ['advice'])).toEqual(where((c) => c.operationId === 'getPet' && c.level !== 'advice'));
    expect(ids(['info'])).toEqual(where((c) => c.level === 'info'));
    expect(ids(['info']).length).toBeGreaterThan(0);
    // Every operation of the spec is tagged `pets`.
    expect(ids(['pets'])).toEqual(every.map((c) => c.id));
  });

  it('suggests the closest id, level, operation or tag for a pattern that matches nothing', () => {
    expect(() => select({ only: ['getpet.unknown'] })).toThrow(
      expect.objectContaining({
        code: 'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
        option: 'only',
        message: '--only getpet.unknown matches no case; did you mean getPet.unknown? (see --list for the case ids)',
      }),
    );
    expect(() => select({ only: ['requierd'] })).toThrow('did you mean required?');
    expect(() => select({ skip: ['listpets.limit'] })).toThrow(
      '--skip listpets.limit matches no case; did you mean listPets.limit?',
    );
    expect(() => select({ only: ['getpet', 'zzzzzz'] })).toThrow(
      '--only getpet, --only zzzzzz match no case; did you mean getPet (for getpet)? (see --list for the case ids)',
    );
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
