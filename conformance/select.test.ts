import { describe, expect, it } from 'vitest';
import { allCases } from './cases/index.ts';
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
