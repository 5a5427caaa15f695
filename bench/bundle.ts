/**
 * What a browser app carries for the mock: an entry bundled by esbuild as a
 * browser app's bundler would (platform browser, minified, tree-shaken), its
 * size raw and gzipped, and which of faker's locales came along. A `node:`
 * import anywhere under the entry makes the build fail, which is the point.
 */
import { relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Options for {@link measureBundle}. */
export interface BundleOptions {
  /** The entry: a path relative to `root` (say `mock/msw/index.ts`) or a package's export (`petstore-toolkit/msw`). */
  entry: string;
  /** The repository root (default: this file's parent folder). */
  root?: string;
  /** Packages the app brings itself and the bundle leaves out (say `msw`). */
  external?: string[];
}

/** One entry's browser bundle. */
export interface BundleFigures {
  entry: string;
  /** What the page loads first: the entry's chunk and the chunks it imports statically. */
  minifiedBytes: number;
  gzippedBytes: number;
  /** What only a dynamic `import()` loads (faker, for another seed or count), minified; 0 when nothing is split off; absent in runs from before the bundle was split. */
  lazyMinifiedBytes?: number;
  /** faker locale folders among the bundle's inputs (`base`, `en`...): the full set is 77 locales. */
  fakerLocales: string[];
  /** The five largest inputs of the first load, bytes in the output, for a reader hunting weight. */
  largest: { path: string; bytes: number }[];
}

/** Bundles `entry` for the browser and measures it. Throws when it cannot be bundled for a browser (a `node:` import, say). */
export async function measureBundle(options: BundleOptions): Promise<BundleFigures> {
  const root = options.root ?? new URL('..', import.meta.url).pathname;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [options.entry],
    bundle: true,
    minify: true,
    format: 'esm',
    // As an app's bundler does: a dynamic import() becomes a chunk of its own, loaded only when it runs.
    splitting: true,
    outdir: 'out',
    platform: 'browser',
    target: 'es2022',
    external: options.external ?? [],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entryPath = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!;
  const initial = new Set<string>();
  const visit = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path]!.imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entryPath);
  const contents = new Map(result.outputFiles.map((file) => [relative(root, file.path), file.contents]));
  const bytesOf = (paths: string[]) => Buffer.concat(paths.map((path) => contents.get(path) ?? new Uint8Array()));
  const code = bytesOf([...initial]);
  const lazy = bytesOf(Object.keys(outputs).filter((path) => !initial.has(path) && path.endsWith('.js')));
  const output = {
    inputs: Object.assign({}, ...[...initial].map((path) => outputs[path]!.inputs)) as Record<
      string,
      { bytesInOutput: number }
    >,
  };
  const locales = new Set<string>();
  for (const path of Object.keys(result.metafile.inputs)) {
    // faker's definitions ship as one chunk per locale, `dist/<locale>-<hash>.js` (`base` holds the shared ones).
    const match = /@faker-js\/faker\/dist\/([a-z]{2,3}(?:_[A-Za-z]+)*|base)-[\w-]+\.js$/.exec(path);
    if (match) locales.add(match[1]!);
  }
  const largest = Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5);
  return {
    entry: options.entry,
    minifiedBytes: code.byteLength,
    gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
    lazyMinifiedBytes: lazy.byteLength,
    fakerLocales: [...locales].sort(),
    largest,
  };
}

/** What the bench's bundle section measures: the pure mock, and the MSW adapter over it (msw itself the app's). */
export const BROWSER_ENTRIES: readonly Omit<BundleOptions, 'root'>[] = [
  { entry: 'petstore-toolkit/mock/core' },
  { entry: 'petstore-toolkit/msw', external: ['msw'] },
];

/** The bundle section: each of {@link BROWSER_ENTRIES} bundled from `root`, a project where the package is installed. */
export async function measureBrowserBundles(root: string): Promise<BundleFigures[]> {
  const figures: BundleFigures[] = [];
  for (const entry of BROWSER_ENTRIES) figures.push(await measureBundle({ ...entry, root }));
  return figures;
}
