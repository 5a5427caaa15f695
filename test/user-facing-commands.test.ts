/**
 * User-facing text names the bins (`npx petstore-mock`), never a script of this repository: `npm start` in a
 * user's project is `Missing script: "start"`. Checked in both bins' --help and in every page of docs/ (shipped
 * in the package), outside a Develop section (a heading that says Develop, and what is under it) and HTML comments.
 * Outside a project, the package is named as `npx --yes -p petstore-toolkit@0 BIN` (without --yes npx outside a
 * terminal exits 1; a bare `npx petstore-mock` there asks the registry for a package of that name, not this one),
 * and a page that shows the bare form inside a project says which is which.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runProcess, tsxEntry } from './support/processes.ts';

/** `npm start`, `npm test`, `npm run <script>`: what only works in a clone of the repository. */
const REPOSITORY_SCRIPT = /\bnpm (start|test|run(?:-script)?)\b/;

/** The lines of a Markdown page outside Develop sections, comments and nothing else left out, with their numbers. */
function userFacingLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const developAt: number[] = []; // heading levels of the open Develop sections
  let fenced = false;
  const text = markdown.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''));
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      while (developAt.length > 0 && developAt.at(-1)! >= level) developAt.pop();
      if (/\bDevelop/i.test(heading[2]!)) developAt.push(level);
    }
    if (developAt.length === 0) out.push({ line: i + 1, text: line });
  });
  return out;
}

describe('user-facing text names no repository script', () => {
  it('finds what it looks for, and leaves Develop sections and comments alone', () => {
    const page = [
      '# Guide',
      'Run `npm start -- --port 0`.',
      '<!-- made by npm run spec:generate -->',
      '## Develop',
      'npm test',
      '### Deeper',
      'npm run bench',
      '```sh',
      '# not a heading: npm run x',
      '```',
      '## Use',
      'npx petstore-mock; npm install petstore-toolkit',
      'npm run build',
    ].join('\n');
    const found = userFacingLines(page).filter((l) => REPOSITORY_SCRIPT.test(l.text));
    expect(found.map((l) => l.line)).toEqual([2, 13]);
  });

  it.each(readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')))('docs/%s', (file) => {
    const page = readFileSync(join(ROOT, 'docs', file), 'utf8');
    const found = userFacingLines(page)
      .filter((l) => REPOSITORY_SCRIPT.test(l.text))
      .map((l) => `${file}:${l.line}: ${l.text.trim()}`);
    expect(found).toEqual([]);
  });

  it.each([
    ['petstore-mock', 'mock/node/cli.ts'],
    ['petstore-conformance', 'conformance/cli.ts'],
  ])('%s --help names the bin, and for one-off use the package with it', async (bin, entry) => {
    const run = await runProcess([...tsxEntry(entry), '--help'], { env: { ...process.env, NO_COLOR: '1' } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(REPOSITORY_SCRIPT);
    expect(run.stdout).toMatch(new RegExp(`^Usage: npx ${bin} \\[options\\]`));
    expect(run.stdout).toContain(`npx --yes -p petstore-toolkit@0 ${bin}`);
    expect(npxProblems(run.stdout)).toEqual([]);
  });
});

/** The one way to run the package outside a project. */
const OUTSIDE = 'npx --yes -p petstore-toolkit@0 ';

/** What is wrong with a text's npx lines: a package named another way, or the bare bin with no word on which is which. */
function npxProblems(text: string): string[] {
  const problems = [...text.matchAll(/npx(?:\s+-{1,2}[\w-]+)*\s+-p\s+[\w@./-]+\s+[\w-]+/g)]
    .map((m) => m[0])
    .filter((line) => !/^npx --yes -p petstore-toolkit@0 petstore-(mock|conformance)$/.test(line))
    .map((line) => `names the package otherwise: ${line}`);
  const bare = /\bnpx petstore-(mock|conformance)\b/.test(text);
  const saysWhich = text.includes(OUTSIDE) && /(project[^.]{0,80}install|install[^.]{0,80}project)/is.test(text);
  if (bare && !saysWhich)
    problems.push(`shows a bare npx petstore-… without saying it is for a project that installed it`);
  return problems;
}

describe('npx outside a project', () => {
  it('finds a package named otherwise, and a bare bin with no word on which is which', () => {
    expect(npxProblems('npx -p petstore-toolkit petstore-mock')).toEqual([
      'names the package otherwise: npx -p petstore-toolkit petstore-mock',
    ]);
    expect(npxProblems('npx --yes -p petstore-toolkit@0 petstore-conformance --base-url x')).toEqual([]);
    expect(npxProblems('Run `npx petstore-mock`.')).toHaveLength(1);
    expect(
      npxProblems(`In a project with it installed, npx petstore-mock; outside one, ${OUTSIDE}petstore-mock.`),
    ).toEqual([]);
  });

  it.each([
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ])('%s', (file) => {
    expect(npxProblems(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
