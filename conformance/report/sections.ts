/**
 * Where a cited section is written: each part of a case's section (`Endpoints §1 List animals; Limits`) as a link
 * to its heading on the contract page (docs/contract.md, as GitHub shows it), or to the RFC's section.
 */
import { CONTRACT_TOP_HEADINGS } from '../../spec/generated/sections.ts';

/** The contract page as published with the package's sources. */
export const CONTRACT_PAGE = 'https://github.com/petstore-toolkit/petstore-toolkit/blob/main/docs/contract.md';

/** The `##` headings of docs/contract.md (generated from it): a section part is one of them, or one and a `###` beneath. */
export { CONTRACT_TOP_HEADINGS };

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** One part of a section and where it is written; `url` is absent for a part this page does not know. */
interface SectionLink {
  name: string;
  url?: string;
}

function linkOf(part: string): SectionLink {
  const rfc = /^RFC (\d+)(?: §([\d.]+))?$/.exec(part);
  if (rfc)
    return { name: part, url: `https://www.rfc-editor.org/rfc/rfc${rfc[1]}${rfc[2] ? `#section-${rfc[2]}` : ''}` };
  const top = CONTRACT_TOP_HEADINGS.find((h) => part === h || part.startsWith(`${h} `));
  if (top === undefined) return { name: part };
  const heading = part === top ? top : part.slice(top.length + 1);
  return { name: part, url: `${CONTRACT_PAGE}#${headingAnchor(heading)}` };
}

/** Each `;`-separated part of `section` with the URL of where it is written. */
export function sectionLinks(section: string): SectionLink[] {
  return section
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(linkOf);
}
