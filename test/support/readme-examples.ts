/**
 * Every TypeScript and JavaScript snippet of the README and docs/*.md, extracted as written, with where it runs:
 * the tests run each one as a user would (test/package/package.test.ts: vitest without `--globals`, Jest with its
 * defaults, Node, on the installed package in a fresh project; the browser one in Chromium; the Deno one under
 * Deno), so no page can show code that does not run. A snippet that fits no way of running is an error here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/** Where a snippet runs, read from what it imports. */
export type SnippetKind = 'vitest' | 'vitest-msw' | 'jest' | 'node' | 'browser' | 'deno' | 'playwright';

/** One fenced `ts` or `js` block of a page. */
export interface Snippet {
  /** The page, relative to the repository (`README.md`, `docs/in-process.md`). */
  file: string;
  /** The line of its opening fence. */
  line: number;
  lang: 'ts' | 'js';
  code: string;
  kind: SnippetKind;
  /** A file name for it, unique across pages (`docs-in-process-17`). */
  name: string;
}

/** How `code` runs; undefined when it runs nowhere as written (a fragment). */
function kindOf(code: string, lang: 'ts' | 'js'): SnippetKind | undefined {
  const sources = [...code.matchAll(/^\s*import\b[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]!);
  const imports = (from: string) => sources.some((source) => source.startsWith(from));
  if (imports('msw/browser')) return 'browser';
  if (imports('npm:')) return 'deno';
  if (imports('@msw/playwright')) return 'playwright';
  if (imports('vitest')) return imports('msw/node') ? 'vitest-msw' : 'vitest';
  if (/\brequire\(/.test(code) && /^\s*(test|it)\(/m.test(code)) return 'jest';
  if (lang === 'js' && /^import /m.test(code) && !/^\s*(test|it|describe)\(/m.test(code)) return 'node';
  return undefined;
}

/** The pages whose snippets are checked. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** Every `ts`/`js` snippet of the README and docs/*.md; throws naming any that runs nowhere as written. */
export function docSnippets(): Snippet[] {
  const snippets: Snippet[] = [];
  const fragments: string[] = [];
  for (const file of pages()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^```(ts|js)\n([\s\S]*?)^```/gm)) {
      const line = text.slice(0, m.index).split('\n').length;
      const lang = m[1] as 'ts' | 'js';
      const code = m[2]!;
      const kind = kindOf(code, lang);
      if (kind === undefined) fragments.push(`${file}:${line}`);
      else
        snippets.push({
          file,
          line,
          lang,
          code,
          kind,
          name: `${file.replace(/\.md$/, '').replace(/\W+/g, '-')}-${line}`,
        });
    }
  }
  if (fragments.length > 0)
    throw new Error(
      `snippets that run nowhere as written (no imports, or not a test, a Node script, a browser, Deno or Playwright one): ${fragments.join(', ')}`,
    );
  return snippets;
}

/** The README's MSW example for a browser app (createMswHandlers with setupWorker), as written. */
export function readmeExamples(): { msw: string } {
  const msw = docSnippets().find((s) => s.file === 'README.md' && s.kind === 'browser');
  if (!msw?.code.includes('createMswHandlers')) throw new Error('README: the MSW example for a browser app is gone');
  return { msw: msw.code };
}
