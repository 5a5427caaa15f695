import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** Non-test TypeScript files under a folder. */
function sources(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'test') walk(path);
      else if (entry.isFile() && path.endsWith('.ts') && !path.endsWith('.test.ts')) out.push(path);
    }
  };
  walk(join(ROOT, folder));
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statics = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?['"]([^'"]+)['"]/g)];
  const dynamics = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]/g)];
  return [...statics, ...dynamics].map((m) => m[1]!);
}

describe('data flows one way: mock/ and conformance/ import spec/, never each other', () => {
  it.each([
    ['spec', ['mock', 'conformance']],
    ['mock', ['conformance']],
    ['conformance', ['mock']],
  ])('%s/ imports none of %j', (folder, forbidden) => {
    const files = sources(folder);
    expect(files.length).toBeGreaterThan(0);
    const topFolder = (file: string, spec: string) => relative(ROOT, resolve(dirname(file), spec)).split(sep)[0]!;
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.') && forbidden.includes(topFolder(file, spec)))
        .map((spec) => `${relative(ROOT, file)} -> ${spec}`),
    );
    expect(offending).toEqual([]);
  });
});
