import { describe, expect, it } from 'vitest';
import { allCases } from '../cases/index.ts';
import { checkSelection } from './preflight.ts';
import { matchesPattern, selectCases } from './select.ts';

describe('selection', () => {
  it('matches exact ids, prefixes at a dot, and * wildcards', () => {
    expect(matchesPattern('listPets', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.ok', 'listPets.ok')).toBe(true);
    expect(matchesPattern('listPets.o', 'listPets.ok')).toBe(false);
    expect(matchesPattern('auth.*.basic', 'auth.getPet.basic')).toBe(true);
    expect(matchesPattern('*.status.*', 'listPets.status.sold')).toBe(true);
    expect(matchesPattern('auth.*', 'listPets.ok')).toBe(false);
  });

  it('only keeps, skip removes', () => {
    const picked = selectCases(allCases(), { only: ['getPet'], skip: ['getPet.malformed'] }).map((c) => c.id);
    expect(picked).toContain('getPet.existing');
    expect(picked).not.toContain('getPet.malformed');
    expect(picked.every((id) => id.startsWith('getPet.'))).toBe(true);
  });
});

describe('checkSelection', () => {
  const cases = allCases();
  const run = (only: string[], skip: string[]): void =>
    checkSelection(cases, selectCases(cases, { only, skip }), only, skip);

  it('names every pattern that matches no case, even when others match', () => {
    expect(() => run(['listPets', 'nosuch'], ['alsoNot'])).toThrow(
      '--only nosuch, --skip alsoNot match no case (see --list for the case ids)',
    );
    expect(() => run(['nosuch'], [])).toThrow(
      expect.objectContaining({ code: 'PETSTORE_CONFORMANCE_NOTHING_SELECTED' }),
    );
  });

  it('refuses a selection that leaves nothing, and accepts one that leaves something', () => {
    expect(() => run(['listPets.ok'], ['listPets'])).toThrow(
      /^no case selected: --skip listPets leaves out every case/,
    );
    expect(() => run(['listPets'], ['listPets.ok'])).not.toThrow();
    expect(() => run([], [])).not.toThrow();
  });
});
