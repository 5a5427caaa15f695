#!/usr/bin/env node
/**
 * The fast way to run mock/cli.ts (`npm start`): one plain JavaScript file,
 * with no tsx loader and no module resolution across hundreds of package
 * files, both of which cost more than the mock's own start. esbuild bundles
 * the CLI with everything it imports into node_modules/.cache/petstore-mock/
 * and rebuilds it whenever a project source, package.json or
 * package-lock.json has changed, so there is no build step to remember.
 * Without esbuild, it falls back to tsx. Plain JavaScript, since Node 20
 * cannot strip types.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'mock', 'cli.ts');
const cacheDir = join(root, 'node_modules', '.cache', 'petstore-mock');
const bundle = join(cacheDir, 'cli.mjs');
const manifest = join(cacheDir, 'cli.inputs.json');

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

async function rebuild(esbuild) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Written beside the bundle but not applied by default (it costs start time):
    // run `node --enable-source-maps mock/start.js` for TypeScript stack traces.
    sourcemap: true,
    // Bundled CommonJS packages (ajv) may require Node's own modules.
    banner: { js: "import { createRequire as petstoreCreateRequire } from 'node:module'; const require = petstoreCreateRequire(import.meta.url);" },
    metafile: true,
    write: false,
    outfile: bundle,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  // Packages are tracked through the lock file rather than file by file.
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
  const inputs = {};
  for (const input of [...sources, 'package.json', 'package-lock.json']) {
    const file = join(root, input);
    inputs[file] = statSync(file).mtimeMs;
  }
  mkdirSync(dirname(bundle), { recursive: true });
  // Written aside and renamed, so a start running at the same time never reads half a file.
  for (const output of result.outputFiles) {
    const temp = `${output.path}.${process.pid}.tmp`;
    writeFileSync(temp, output.contents);
    renameSync(temp, output.path);
  }
  writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify(inputs));
  renameSync(`${manifest}.${process.pid}.tmp`, manifest);
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
      const esbuild = await import('esbuild');
      await rebuild(esbuild);
      await esbuild.stop?.();
    } catch {
      // No esbuild, a read-only install, or a source that does not compile (tsx then reports it).
      await runWithTsx();
      return;
    }
  }
  await import(pathToFileURL(bundle).href);
}

await main();
