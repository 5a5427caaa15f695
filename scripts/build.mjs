// `npm run build` (also run by `npm ci` and `npm pack` through `prepare`): the
// package's JavaScript in dist/: ES modules with declarations from tsc, and a
// CommonJS copy of each library entry from esbuild, for `require` and for
// Jest's CommonJS runtime (faker is ES-only, so it is bundled into that copy).
// The petstore-mock bin is then replaced by one bundled file, since Node loads
// one file much faster than thirty; seed.ts, which loads faker and is needed
// only for pets that do not ship as data, stays a chunk of its own that the
// bin imports on demand.

import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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
