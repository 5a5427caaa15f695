// `npm run build` (also run by `npm ci`/`npm install` through the `dependencies` hook and by `npm pack` through
// `prepack`; the published package declares no install or prepare script): the package's
// JavaScript in dist/: ES modules with declarations from tsc, and a
// CommonJS copy of each library entry from esbuild, for `require` and for
// Jest's CommonJS runtime (faker is ES-only, so it is bundled into that copy).
// The petstore-mock bin is then replaced by one bundled file, since Node loads
// one file much faster than thirty; seed.ts, which loads faker and is needed
// only for pets that do not ship as data, stays a chunk of its own that the
// bin imports on demand.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const pkg = require('../package.json');
const root = new URL('..', import.meta.url).pathname;

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)];
await build({
  absWorkingDir: root,
  entryPoints: [
    'mock/node/index.ts',
    'mock/core/index.ts',
    'mock/msw/index.ts',
    'mock/undici/index.ts',
    'conformance/index.ts',
    'spec/index.ts',
  ],
  outdir: 'dist/cjs',
  outbase: '.',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: [
    ...Object.keys(pkg.dependencies).filter((name) => name !== '@faker-js/faker'),
    ...Object.keys(pkg.peerDependencies),
  ],
  logLevel: 'warning',
});
await build({
  absWorkingDir: root,
  entryPoints: { 'mock/node/cli': 'mock/node/cli.ts' },
  outdir: 'dist',
  chunkNames: 'mock/node/chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});

// The CommonJS copies need declarations that TypeScript reads as CommonJS too (a `.d.ts` beside
// "type": "module" is read as ESM, which @arethetypeswrong calls "masquerading as ESM"): every
// declaration is mirrored under dist/cjs as `.d.cts`, its relative imports pointing at `.cjs`.
/** Every `.d.ts` under `dir`, except the CommonJS tree itself. */
function declarations(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(root, 'dist', 'cjs') ? [] : declarations(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
for (const file of declarations(join(root, 'dist'))) {
  const target = join(root, 'dist', 'cjs', relative(join(root, 'dist'), file)).replace(/\.d\.ts$/, '.d.cts');
  mkdirSync(dirname(target), { recursive: true });
  const text = readFileSync(file, 'utf8').replace(
    /((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*?)\.(js|ts)(['"])/g,
    (_, head, ext, quote) => `${head}.c${ext}${quote}`,
  );
  writeFileSync(target, text);
}
