// `npm run build:executables [-- --out DIR]`: petstore-mock and petstore-conformance as single-file executables
// for linux-x64 (Node's single executable applications), for teams without Node. Each is this Node's own binary
// with the command injected: an esbuild bundle of the CLI as one CommonJS file (what Node 20's SEA runs), its blob
// from `node --experimental-sea-config`, put in a copy of the binary by postject. Not part of `npm run build`:
// each file is as large as Node itself (about 100 MB), and test/executables.test.ts builds them to run them.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const { inject } = require('postject');
const pkg = require('../package.json');
const root = new URL('..', import.meta.url).pathname;

/** The commands built, by executable name: the same CLI entries the bins load. */
const COMMANDS = { 'petstore-mock': 'mock/node/cli.ts', 'petstore-conformance': 'conformance/cli.ts' };
/** Node's fixed marker for a SEA blob (docs: "Single executable applications"). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'executables') } } });
if (process.platform !== 'linux' || process.arch !== 'x64') {
  // postject writes ELF here; macOS and Windows need a code signature and other steps, not made here.
  process.stderr.write(`build-executables: builds for linux-x64 only, this is ${process.platform}-${process.arch}\n`);
  process.exit(2);
}
if (!readFileSync(process.execPath).includes(SEA_FUSE)) {
  process.stderr.write(`build-executables: ${process.execPath} was built without single executable support\n`);
  process.exit(2);
}

const out = resolve(values.out);
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'petstore-sea-'));
try {
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const bundle = join(work, `${name}.cjs`);
    await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // The optional stores' drivers are native or optional peers: a SEA loads built-in modules only.
      external: Object.keys(pkg.peerDependencies),
      // No package.json travels with the executable: --version reads the version built in (spec/files.ts).
      define: { PETSTORE_TOOLKIT_VERSION: JSON.stringify(pkg.version) },
      logLevel: 'error',
    });
    const blob = join(work, `${name}.blob`);
    const config = join(work, `${name}.sea.json`);
    writeFileSync(
      config,
      JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
    );
    execFileSync(process.execPath, ['--experimental-sea-config', config], { cwd: work, stdio: 'pipe' });
    const executable = join(out, name);
    rmSync(executable, { force: true });
    copyFileSync(process.execPath, executable);
    chmodSync(executable, 0o755);
    await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
    process.stdout.write(`${executable}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
