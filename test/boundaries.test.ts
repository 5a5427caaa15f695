/**
 * Data flows one way, checked over every TypeScript file of every folder
 * (tests and test helpers included, no folder exempt): mock/core imports no
 * `node:` module and nothing outside itself but spec/, guard/ and its packages; the
 * adapters import mock/core, never the reverse; mock/ and conformance/ import
 * spec/ and guard/ (what both share), never each other; spec/ and guard/ import neither.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/processes.ts';

const FOLDERS = ['spec', 'guard', 'mock', 'conformance', 'prism', 'fixtures', 'test', 'bench', 'examples'];

/** Every TypeScript file under a folder. */
function sources(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.[cm]?ts$/.test(path)) out.push(path);
    }
  };
  walk(join(ROOT, folder));
  return out;
}

/** The module specifiers a file imports or re-exports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statics = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?['"]([^'"]+)['"]/g)];
  const dynamics = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]/g)];
  return [...statics, ...dynamics].map((m) => m[1]!);
}

/** A relative import's target as a repository path (`mock/core/handler.ts`). */
function target(file: string, specifier: string): string {
  return relative(ROOT, resolve(dirname(file), specifier))
    .split(sep)
    .join('/');
}

/** `file -> specifier` for each import of files under `folder` that `forbidden` says no to. */
function offending(folder: string, forbidden: (specifier: string, to: string) => boolean): string[] {
  const files = sources(folder);
  expect(files.length).toBeGreaterThan(0);
  return files.flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden(spec, spec.startsWith('.') ? target(file, spec) : ''))
      .map((spec) => `${relative(ROOT, file)} -> ${spec}`),
  );
}

describe('import boundaries', () => {
  it('covers every folder that holds TypeScript', () => {
    const withTs = readdirSync(ROOT, { withFileTypes: true })
      .filter(
        // artifacts/ and reports/ are test outputs (gitignored): a browser test writes a page's main.ts there meanwhile.
        (e) =>
          e.isDirectory() &&
          !['node_modules', 'dist', 'scripts', 'artifacts', 'reports'].includes(e.name) &&
          !e.name.startsWith('.'),
      )
      .filter((e) => sources(e.name).length > 0)
      .map((e) => e.name);
    expect(withTs.sort()).toEqual([...FOLDERS].sort());
  });

  it('mock/core imports no node: module, and nothing of the repository but itself, spec/ and guard/', () => {
    const bad = offending('mock/core', (spec, to) => {
      if (spec.startsWith('node:')) return true;
      if (!spec.startsWith('.')) return false;
      return !(
        to.startsWith('mock/core/') ||
        to.startsWith('guard/') ||
        (to.startsWith('spec/') && !to.startsWith('spec/build/') && to !== 'spec/files.ts')
      );
    });
    expect(bad).toEqual([]);
  });

  it('guard/, which the mock core loads in browsers too, imports no node: module and nothing of the repository but itself', () => {
    const bad = offending('guard', (spec, to) => {
      if (spec.startsWith('node:')) return !/\.test\.ts$/.test(to);
      return spec.startsWith('.') && !to.startsWith('guard/');
    });
    expect(bad).toEqual([]);
  });

  it('spec/ as the mock core loads it (index and generated) imports no node: module', () => {
    const runtime = sources('spec').filter((f) => /spec\/(index|generated\/[^/]+)\.ts$/.test(f));
    expect(runtime.length).toBe(6);
    const bad = runtime.flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith('node:'))
        .map((s) => `${file} -> ${s}`),
    );
    expect(bad).toEqual([]);
  });

  it.each([
    ['spec', ['guard/', 'mock/', 'conformance/', 'prism/', 'test/', 'bench/']],
    ['guard', ['spec/', 'mock/', 'conformance/', 'prism/', 'test/', 'bench/']],
    ['mock', ['conformance/', 'prism/', 'bench/']],
    ['conformance', ['mock/', 'prism/', 'bench/']],
    ['prism', ['mock/', 'conformance/', 'bench/']],
  ])('%s/ imports none of %j', (folder, forbidden) => {
    expect(offending(folder, (_spec, to) => forbidden.some((f) => to.startsWith(f)))).toEqual([]);
  });

  it('no code outside tests imports a test helper', () => {
    const bad = FOLDERS.filter((f) => f !== 'test').flatMap((folder) =>
      offending(folder, (_spec, to) => to.startsWith('test/')).filter((line) => !/\.test\.ts ->|\/test\//.test(line)),
    );
    expect(bad).toEqual([]);
  });

  it('mock/msw, which runs in browsers too, imports no node: module and nothing of the repository but mock/core', () => {
    const bad = offending('mock/msw', (spec, to) => {
      if (spec.startsWith('node:')) return true;
      return spec.startsWith('.') && !to.startsWith('mock/msw/') && !to.startsWith('mock/core/');
    });
    expect(bad).toEqual([]);
  });

  it.each(['mock/node', 'mock/msw', 'mock/undici'])('the adapter %s imports no other adapter', (folder) => {
    const bad = offending(
      folder,
      (_spec, to) => to.startsWith('mock/') && !to.startsWith(`${folder}/`) && !to.startsWith('mock/core/'),
    );
    expect(bad).toEqual([]);
  });

  it('mock/core is imported by the adapters, never the reverse', () => {
    expect(offending('mock/core', (_spec, to) => to.startsWith('mock/') && !to.startsWith('mock/core/'))).toEqual([]);
  });

  it('no import cycle outside mock/: types two modules share live below both', () => {
    // mock/'s own cycles are being taken apart on their own (issue 46); every other folder holds none.
    const files = ['spec', 'guard', 'conformance', 'bench', 'prism', 'fixtures'].flatMap(sources);
    const graph = new Map(
      files.map((file) => [
        relative(ROOT, file),
        importsOf(file)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => target(file, spec)),
      ]),
    );
    const cycles: string[] = [];
    const done = new Set<string>();
    const walk = (file: string, path: string[]) => {
      const at = path.indexOf(file);
      if (at !== -1) return void cycles.push([...path.slice(at), file].join(' -> '));
      if (done.has(file) || !graph.has(file)) return;
      for (const next of graph.get(file)!) walk(next, [...path, file]);
      done.add(file);
    };
    for (const file of graph.keys()) walk(file, []);
    expect(cycles).toEqual([]);
  });
});
