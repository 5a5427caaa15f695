/**
 * The documents in the tarball as a user reads them in node_modules: every relative link resolves to a file the
 * tarball holds (what it does not ship, examples/, bench/, tests, is linked by its repository URL, and each such
 * URL names a file or folder the repository tracks), and no page names a release of this package later than the
 * one package.json states ("the behaviour before 0.3.0" while --version says 0.2.0).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess } from '../support/processes.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  repository: { url: string };
};
/** `https://github.com/owner/name`, from package.json's repository. */
const REPOSITORY = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const work = mkdtempSync(join(tmpdir(), 'petstore-shipped-docs-'));
const unpacked = join(work, 'package');

/** Every link target of a Markdown page outside code: inline `[t](x)`, reference `[t]: x`, HTML `href="x"`. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!),
    ...[...prose.matchAll(/\bhref="([^"]+)"/g)].map((m) => m[1]!),
  ];
}

/** Versions a page says of a release (`before 0.3.0`, `since v0.2.0`). */
function releasesNamed(markdown: string): string[] {
  return [...markdown.matchAll(/\b(?:before|since|after|until|from|as of|in|to) v?(\d+\.\d+\.\d+)\b/gi)].map(
    (m) => m[1]!,
  );
}

const newer = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! > y![i]!;
  return false;
};

/** The Markdown files of the unpacked package, relative to it. */
function pages(dir = unpacked): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' ? [] : pages(path);
    return entry.name.endsWith('.md') ? [relative(unpacked, path)] : [];
  });
}

beforeAll(async () => {
  const pack = await runProcess(['npm', 'pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    timeoutMs: 120_000,
  });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as { filename: string }[];
  execFileSync('tar', ['-xzf', join(work, packed!.filename), '-C', work]);
}, 150_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the link and version readers', () => {
  it('find links outside code, and releases named in prose', () => {
    const page = [
      'See [a](../examples/pact/) and [b](docs/mock.md#flags "title").',
      '`[not](code.md)`',
      '```md',
      '[nor](fenced.md)',
      '```',
      '[ref]: ./ref.md',
      '<a href="page.html">x</a> [web](https://example.com) [here](#flags)',
      'the behaviour before 0.3.0, json-server 0.17.4, since v0.1.0',
    ].join('\n');
    expect(linkTargets(page)).toEqual([
      '../examples/pact/',
      'docs/mock.md#flags',
      'https://example.com',
      '#flags',
      './ref.md',
      'page.html',
    ]);
    expect(releasesNamed(page)).toEqual(['0.3.0', '0.1.0']);
  });
});

describe('the packed documents', () => {
  it('are there: the README, the CHANGELOG and docs/', () => {
    expect(pages()).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/mock.md']));
  });

  it('link only to files the tarball holds, or to the repository by a URL that names a tracked path', () => {
    const tracked = new Set(
      execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
        .split('\n')
        .flatMap((file) => file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
    );
    const broken: string[] = [];
    for (const page of pages()) {
      for (const target of linkTargets(readFileSync(join(unpacked, page), 'utf8'))) {
        const path = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
        const inRepository = new RegExp(`^${REPOSITORY}/(?:tree|blob)/main/(.+?)/?$`).exec(path);
        if (inRepository) {
          if (!tracked.has(inRepository[1]!)) broken.push(`${page}: ${target} (not in the repository)`);
          continue;
        }
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || path === '') continue;
        const file = resolve(dirname(join(unpacked, page)), path);
        if (relative(unpacked, file).startsWith('..') || !existsSync(file))
          broken.push(`${page}: ${target} (not in the tarball)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it(`name no release after the one package.json states (${pkg.version})`, () => {
    const later = pages().flatMap((page) =>
      releasesNamed(readFileSync(join(unpacked, page), 'utf8'))
        .filter((named) => newer(named, pkg.version))
        .map((named) => `${page}: ${named}`),
    );
    expect(later).toEqual([]);
  });
});
