import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedProperties } from '../generate/index.ts';
import { allCases } from './index.ts';

const CONTRACT = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');

function contractSections(markdown: string): Set<string> {
  const names = new Set<string>();
  let parent: string | undefined;
  for (const [, level, text] of markdown.matchAll(/^(#{2,3}) (.+)$/gm)) {
    if (level === '##') names.add((parent = text!));
    else if (parent !== undefined) names.add(`${parent} ${text}`);
  }
  return names;
}

// The rule: a case's section is ';'-separated parts; each part is an RFC reference (`RFC 6750 §3`), a `##`
// heading of docs/contract.md (`Limits`), or a `##` heading, a space and a `###` heading beneath it
// (`Endpoints §1 List animals`, `Resources Pet`).
function unknownParts(section: string, known: Set<string>): string[] {
  return section
    .split(';')
    .map((part) => part.trim())
    .filter((part) => !/^RFC \d+\b/.test(part) && !known.has(part));
}

describe('sections cited by conformance cases', () => {
  const known = contractSections(CONTRACT);

  it('reads the headings of docs/contract.md', () => {
    expect(known).toContain('Limits');
    expect(known).toContain('Endpoints §1 List animals');
    expect(known).not.toContain('§1 List animals');
  });

  it('are all headings of docs/contract.md', () => {
    const missing = [...allCases(), ...generatedProperties()].flatMap((c) =>
      unknownParts(c.section, known).map((part) => `${c.id}: ${part}`),
    );
    expect(missing).toEqual([]);
  });

  it('catches a section the page does not have', () => {
    expect(unknownParts('Endpoints §2 Add an animal; Endpoints §9 Feed an animal; RFC 6750 §3', known)).toEqual([
      'Endpoints §9 Feed an animal',
    ]);
    expect(unknownParts('Resources: NewPet (categoryId int64)', known)).toEqual([
      'Resources: NewPet (categoryId int64)',
    ]);
  });
});
