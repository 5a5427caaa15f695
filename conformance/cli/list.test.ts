import { describe, expect, it } from 'vitest';
import { select } from '../run/select.ts';
import { listCases, renderList } from './list.ts';

describe('--list', () => {
  it('lists the selected cases, then the generated checks marked as such, with counts that match', () => {
    const selection = select({ only: ['getPet.unknown', 'generated.getPet.lost'] });
    expect(listCases(selection).map((c) => [c.id, c.generated])).toEqual([
      ['getPet.unknown', undefined],
      ['generated.getPet.lost', true],
    ]);
    const text = renderList(selection, false).trimEnd().split('\n');
    expect(text[0]).toMatch(/^id +level +operation +section$/);
    expect(text[1]).toMatch(/^getPet\.unknown +required +getPet +Endpoints §3/);
    expect(text[2]).toMatch(/^generated\.getPet\.lost +required +getPet +Endpoints §3/);
    expect(text.at(-1)).toBe('1 case, 1 generated check (run with --generate N)');
    expect(
      renderList(select({ only: ['listPets.*'] }), false)
        .trimEnd()
        .split('\n')
        .at(-1),
    ).toMatch(/^\d+ cases$/);
    expect(JSON.parse(renderList(selection, true))).toEqual(listCases(selection));
  });
});
