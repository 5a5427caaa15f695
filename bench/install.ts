/**
 * The package as a user gets it: `npm pack` (which runs the build, so every
 * section measures the same dist/), then the tarball installed into a
 * temporary project together with a two-line node:http server package that
 * has a bin, made here, packed and installed the same way. The throughput
 * section's servers run there too, as plain JavaScript.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { ROOT } from './processes.ts';

/** The two-line server's bin name. */
export const TWO_LINE_BIN = 'two-line-server';

/** The two-line server: boot node, load node:http, listen; answer everything with `[]`. */
const TWO_LINE_SERVER = `#!/usr/bin/env node
import { createServer } from 'node:http';
createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')).listen(Number(process.argv[process.argv.indexOf('--port') + 1]), '127.0.0.1');
`;

/** In a fresh process: the package's ./mock imported, the mock started, its first answer; phases timed from the first line. */
const IN_PROCESS_MOCK = (apiKey: string) => `const t0 = performance.now();
const { startMockServer } = await import('petstore-toolkit/mock');
const t1 = performance.now();
const server = await startMockServer({ port: 0, apiKeys: ['${apiKey}'] });
const t2 = performance.now();
const response = await fetch(server.url + '/pets?limit=1', { headers: { authorization: 'Bearer ${apiKey}' } });
await response.text();
const t3 = performance.now();
await server.close();
process.stdout.write(JSON.stringify({ status: response.status, total: t3 - t0, phases: { import: t1 - t0, start: t2 - t1, 'first answer': t3 - t2 } }));
`;

/** The same with a two-line node:http server. */
const IN_PROCESS_TWO_LINE = `const t0 = performance.now();
const { createServer } = await import('node:http');
const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const t1 = performance.now();
const response = await fetch('http://127.0.0.1:' + server.address().port + '/v1/pets?limit=1');
await response.text();
const t2 = performance.now();
server.close();
process.stdout.write(JSON.stringify({ status: response.status, total: t2 - t0, phases: { start: t1 - t0, 'first answer': t2 - t1 } }));
`;

/** Where things are in the installed project. */
export interface InstalledProject {
  /** The project directory (the cwd of every startup command). */
  dir: string;
  /** The mock's bin as installed, relative to `dir` (from the installed package.json's `bin`). */
  mockBin: string;
  /** The suite's bin as installed, relative to `dir`. */
  conformanceBin: string;
  /** The two-line server's script as installed, relative to `dir`. */
  twoLineBin: string;
  /** bench/servers/cli.ts as plain JavaScript (no tsx in a yardstick), importing the installed package; relative to `dir`. */
  benchServers: string;
  /** In-process scripts, relative to `dir`. */
  inProcessMock: string;
  inProcessTwoLine: string;
  /** The toolkit's tarball: its size and how many files it holds. */
  tarball: { bytes: number; files: number };
}

const run = promisify(execFile);

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 2 ** 20, timeout: 300_000 });
  return stdout;
}

async function pack(dir: string, destination: string): Promise<{ file: string; size: number; entryCount: number }> {
  const [packed] = JSON.parse(await npm(['pack', '--json', '--pack-destination', destination], dir)) as {
    filename: string;
    size: number;
    entryCount: number;
  }[];
  return { file: join(destination, packed!.filename), size: packed!.size, entryCount: packed!.entryCount };
}

/** Packs this repository (building it) and the two-line package, and installs both into `work`/project. */
export async function installProject(work: string, apiKey: string): Promise<InstalledProject> {
  const toolkit = await pack(ROOT, work);
  const twoLineDir = join(work, TWO_LINE_BIN);
  mkdirSync(twoLineDir);
  writeFileSync(
    join(twoLineDir, 'package.json'),
    JSON.stringify({ name: TWO_LINE_BIN, version: '1.0.0', type: 'module', bin: { [TWO_LINE_BIN]: 'server.js' } }),
  );
  writeFileSync(join(twoLineDir, 'server.js'), TWO_LINE_SERVER, { mode: 0o755 });
  const twoLine = await pack(twoLineDir, work);
  const dir = join(work, 'project');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-project', private: true, type: 'module' }));
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', toolkit.file, twoLine.file], dir);
  writeFileSync(join(dir, 'in-process-mock.mjs'), IN_PROCESS_MOCK(apiKey));
  writeFileSync(join(dir, 'in-process-two-line.mjs'), IN_PROCESS_TWO_LINE);
  await build({
    entryPoints: [join(ROOT, 'bench', 'servers', 'cli.ts')],
    outfile: join(dir, 'bench-servers.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['petstore-toolkit', 'petstore-toolkit/*'],
    logLevel: 'warning',
  });
  const installed = (name: string) =>
    JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
  return {
    dir,
    mockBin: join('node_modules', 'petstore-toolkit', installed('petstore-toolkit').bin['petstore-mock']!),
    conformanceBin: join(
      'node_modules',
      'petstore-toolkit',
      installed('petstore-toolkit').bin['petstore-conformance']!,
    ),
    twoLineBin: join('node_modules', TWO_LINE_BIN, installed(TWO_LINE_BIN).bin[TWO_LINE_BIN]!),
    benchServers: 'bench-servers.mjs',
    inProcessMock: 'in-process-mock.mjs',
    inProcessTwoLine: 'in-process-two-line.mjs',
    tarball: { bytes: toolkit.size, files: toolkit.entryCount },
  };
}
