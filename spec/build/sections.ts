/**
 * The contract page's section titles as a module, derived from the headings of docs/contract.md (which is itself
 * rendered from the OpenAPI document): the one table the suite cites sections from, so no title is typed by hand.
 */

/** A heading's name in the table: its words in camelCase, without `§N` and without a parenthesised note. */
function keyOf(heading: string): string {
  const words = heading
    .replace(/§\s*\d+/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  return words.map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** The section titles of `contract` (its Markdown): each `##` heading, and each `##` heading, a space and a `###` beneath. */
function contractSections(contract: string): { top: string[]; sections: Record<string, string> } {
  const top: string[] = [];
  const sections: Record<string, string> = {};
  const add = (key: string, title: string) => {
    if (Object.hasOwn(sections, key)) throw new Error(`two contract sections would be named ${key}: rename one`);
    sections[key] = title;
  };
  for (const line of contract.split('\n')) {
    const heading = /^(##|###) (.+?)\s*$/.exec(line);
    if (heading === null) continue;
    if (heading[1] === '##') {
      top.push(heading[2]!);
      add(keyOf(heading[2]!), heading[2]!);
    } else if (top.length > 0) add(keyOf(heading[2]!), `${top.at(-1)} ${heading[2]}`);
  }
  return { top, sections };
}

/** The TypeScript of spec/generated/sections.ts for `contract`, the text of docs/contract.md. */
export function renderSections(contract: string, banner: string): string {
  const { top, sections } = contractSections(contract);
  return (
    banner +
    '\n/** The `##` headings of docs/contract.md: a cited section is one of them, or one of them and a `###` beneath it. */\n' +
    `export const CONTRACT_TOP_HEADINGS = ${JSON.stringify(top, null, 2)} as const;\n\n` +
    '/** Every section of docs/contract.md by name, as a case cites it (`Endpoints §1 List animals`). */\n' +
    `export const CONTRACT_SECTIONS = ${JSON.stringify(sections, null, 2)} as const;\n`
  );
}
