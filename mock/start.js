#!/usr/bin/env node
/**
 * The fast way to run mock/cli.ts (`npm start`): one plain JavaScript file,
 * with no tsx loader and no module resolution across hundreds of package
 * files, both of which cost more than the mock's own start. esbuild bundles
 * the CLI with everything it imports into node_modules/.cache/petstore-mock/
 * and rebuilds it whenever a project source, the spec, package.json or
 * package-lock.json has changed, so there is no build step to remember.
 * The bundle carries the spec already parsed (no YAML parser at start), and
 * runs with a V8 code cache written after its first start (no compiling a
 * megabyte of JavaScript again). Without esbuild, it falls back to tsx.
 * Plain JavaScript, since Node 20 cannot strip types.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'mock', 'cli.ts');
// PETSTORE_CACHE_DIR moves it, for a read-only install or a test of its own.
const cacheDir = resolve(process.env.PETSTORE_CACHE_DIR || join(root, 'node_modules', '.cache', 'petstore-mock'));
const bundle = join(cacheDir, 'cli.cjs');
const codeCache = join(cacheDir, 'cli.cjs.v8-cache');
const manifest = join(cacheDir, 'cli.inputs.json');
const specDocument = join(root, 'spec', 'document.ts');
const specYaml = join(root, 'spec', 'petstore.openapi.yaml');

/** True when the bundle exists and every source it was built from is unchanged. */
function isFresh() {
  try {
    const inputs = JSON.parse(readFileSync(manifest, 'utf8'));
    statSync(bundle);
    return Object.entries(inputs).every(([file, mtimeMs]) => statSync(file).mtimeMs === mtimeMs);
  } catch {
    return false;
  }
}

/** Each module keeps its own import.meta.url (the spec is found next to spec/index.ts). */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** spec/document.ts, in the bundle: the document parsed now, at build time, instead of at every start. */
function parsedSpec(parseYaml) {
  return {
    name: 'parsed-spec',
    setup(build) {
      build.onLoad({ filter: /[\\/]spec[\\/]document\.ts$/ }, () => ({
        contents:
          `export const SPEC_PATH = ${JSON.stringify(specYaml)};\n` +
          `export function readSpecDocument() { return JSON.parse(${JSON.stringify(JSON.stringify(parseYaml(readFileSync(specYaml, 'utf8'))))}); }\n`,
        loader: 'js',
      }));
    },
  };
}

/** Writes a file aside and renames it, so a start running at the same time never reads half a file. */
function writeWhole(file, contents) {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, file);
}

async function rebuild(esbuild, parseYaml) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    // CommonJS, so that runBundle can compile it as a script with a code cache (Node 20 has no cache for ES modules).
    format: 'cjs',
    target: 'node20',
    // Written beside the bundle but not applied by default (it costs start time): run
    // `node --enable-source-maps mock/start.js` for TypeScript stack traces (then without the code cache).
    sourcemap: true,
    metafile: true,
    write: false,
    outfile: bundle,
    logLevel: 'silent',
    plugins: [parsedSpec(parseYaml), ownImportMetaUrl],
  });
  // Packages are tracked through the lock file rather than file by file; the spec is read by the plugin, not imported.
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
  const inputs = {};
  for (const file of [...sources.map((input) => join(root, input)), specDocument, specYaml, join(root, 'package.json'), join(root, 'package-lock.json')]) {
    inputs[file] = statSync(file).mtimeMs;
  }
  mkdirSync(dirname(bundle), { recursive: true });
  for (const output of result.outputFiles) writeWhole(output.path, output.contents);
  writeWhole(manifest, JSON.stringify(inputs));
}

/**
 * The code cache V8 wrote after an earlier start of this same bundle, if any. V8 itself
 * only compares the source's length, so the file starts with a hash of the source it
 * was made from, and a cache made from another build is never used.
 */
function readCodeCache(sourceHash) {
  try {
    const file = readFileSync(codeCache);
    return file.subarray(0, sourceHash.length).equals(sourceHash) ? file.subarray(sourceHash.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs the bundle as a CommonJS module compiled with the code cache, then, once the
 * mock is serving, writes a new cache if there was none or V8 refused it (another
 * Node). Written after the start, it holds the functions the start compiled.
 */
async function runBundle() {
  // Node maps stack traces only for modules its own loader compiled.
  if (process.sourceMapsEnabled) return void (await createRequire(import.meta.url)(bundle).settled);
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`;
  const sourceHash = createHash('sha256').update(source).digest();
  const cachedData = readCodeCache(sourceHash);
  const script = new Script(source, { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(bundle), module, bundle, cacheDir);
  await module.exports.settled;
  if (cachedData === undefined || script.cachedDataRejected) {
    try {
      writeWhole(codeCache, Buffer.concat([sourceHash, script.createCachedData()]));
    } catch {
      // A read-only install: every start compiles, as without a cache.
    }
  }
}

/** Runs the TypeScript entry through tsx instead: slower to start, same behaviour. */
async function runWithTsx() {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
}

async function main() {
  if (!isFresh()) {
    try {
      const [esbuild, yaml] = await Promise.all([import('esbuild'), import('yaml')]);
      await rebuild(esbuild, yaml.parse);
      await esbuild.stop?.();
    } catch {
      // No esbuild, a read-only install, or a source that does not compile (tsx then reports it).
      await runWithTsx();
      return;
    }
  }
  await runBundle();
}

await main();
