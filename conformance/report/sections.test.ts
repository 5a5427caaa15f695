import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCases } from '../cases/index.ts';
import { generatedProperties } from '../generate/index.ts';
import { CONTRACT_PAGE, CONTRACT_TOP_HEADINGS, headingAnchor, sectionLinks } from './sections.ts';

const CONTRACT = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  repository: { url: string };
};

describe('sectionLinks', () => {
  it('knows exactly the ## headings of docs/contract.md', () => {
    const headings = [...CONTRACT.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect([...CONTRACT_TOP_HEADINGS]).toEqual(headings);
  });

  it("links every part every case cites to a heading of the contract page, or to the RFC's section", () => {
    const anchors = new Set([...CONTRACT.matchAll(/^#{1,3} (.+)$/gm)].map((m) => headingAnchor(m[1]!)));
    for (const c of [...allCases(), ...generatedProperties()])
      for (const link of sectionLinks(c.section)) {
        expect(link.url, `${c.id}: ${link.name}`).toBeDefined();
        if (link.url!.startsWith(CONTRACT_PAGE))
          expect(anchors, `${c.id}: ${link.url}`).toContain(link.url!.split('#')[1]);
        else expect(link.url).toMatch(/^https:\/\/www\.rfc-editor\.org\/rfc\/rfc\d+(#section-[\d.]+)?$/);
      }
  });

  it('reads a section part by part, as GitHub anchors the headings', () => {
    expect(sectionLinks('Endpoints §3 Get an animal (deprecated); Limits; RFC 8259 §8.1')).toEqual([
      { name: 'Endpoints §3 Get an animal (deprecated)', url: `${CONTRACT_PAGE}#3-get-an-animal-deprecated` },
      { name: 'Limits', url: `${CONTRACT_PAGE}#limits` },
      { name: 'RFC 8259 §8.1', url: 'https://www.rfc-editor.org/rfc/rfc8259#section-8.1' },
    ]);
    expect(sectionLinks('Somewhere else')).toEqual([{ name: 'Somewhere else' }]);
  });

  it("points at the package's own repository", () => {
    expect(CONTRACT_PAGE.startsWith(PACKAGE.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''))).toBe(true);
  });
});
