/**
 * The packed package on the other runtimes a client developer uses, each in a
 * fresh project of its own (installed in parallel): Bun (`bun test`, and both
 * bins under `bun` judged the same as under Node), Deno (`npm:` imports, the
 * suite over a port and through the dispatcher), and Debian's Chromium through
 * playwright-core with the mock's MSW handlers behind @msw/playwright (the
 * example in examples/playwright/). Bun and Deno are devDependencies (the `bun`
 * and `deno` packages carry their binaries); the tarball is the dist/ that
 * `npm test` built (run `npm run build` first when running this file alone).
 */
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { ROOT, runProcess, spawnProcess, stopAllProcesses } from '../support/processes.ts';
import { docSnippets, type SnippetKind } from '../support/readme-examples.ts';

// The binaries ship inside the platform packages; the bun and deno packages' install scripts only move them
// into place, so a binary is found whether or not npm ran those scripts (npm is moving to not running them).
const NODE_MODULES = join(ROOT, 'node_modules');
const BUN = [
  join(NODE_MODULES, '@oven', 'bun-linux-x64', 'bin', 'bun'),
  join(NODE_MODULES, 'bun', 'bin', 'bun.exe'),
].find((path) => existsSync(path))!;
const DENO = [join(NODE_MODULES, '@deno', 'linux-x64-glibc', 'deno'), join(NODE_MODULES, '.bin', 'deno')].find((path) =>
  existsSync(path),
)!;
const CHROMIUM = '/usr/bin/chromium';
const RUNTIMES = join(ROOT, 'test', 'package', 'runtimes');
const KEY = 'runtime-secret-key-3141';

const projects = { bun: '', deno: '', playwright: '' };
const env = { ...process.env, NO_COLOR: '1' };

/** Runs an npm command in `cwd`, failing with npm's output when it fails. */
async function npm(args: string[], cwd: string): Promise<void> {
  const run = await runProcess(['npm', ...args], { cwd, timeoutMs: 180_000 });
  if (run.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
}

/** A fresh project holding the files of `source`, with the tarball and `extra` packages installed. */
async function project(work: string, name: string, source: string, tarball: string, extra: string[] = []) {
  const dir = join(work, name);
  cpSync(source, dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }));
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...extra], dir);
  return dir;
}

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-runtimes-'));
  if (!existsSync(join(ROOT, 'dist', 'conformance', 'cli.js'))) throw new Error('run `npm run build` first');
  const run = await runProcess(['npm', 'pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: ROOT,
  });
  const tarball = join(work, (JSON.parse(run.stdout) as { filename: string }[])[0]!.filename);
  const dev = pkg.devDependencies as Record<string, string>;
  // msw 2, the version the repository tests msw 2 with: @msw/playwright's peer, and the major that intercepts on Bun.
  const msw2 = `msw@${dev['msw-2']!.replace(/^npm:msw@/, '')}`;
  [projects.bun, projects.deno, projects.playwright] = await Promise.all([
    project(work, 'bun', join(RUNTIMES, 'bun'), tarball, [msw2]),
    project(work, 'deno', join(RUNTIMES, 'deno'), tarball),
    project(work, 'playwright', join(ROOT, 'examples', 'playwright'), tarball, [
      msw2,
      `@msw/playwright@${dev['@msw/playwright']}`,
      `playwright-core@${dev['playwright-core']}`,
    ]),
  ]);
}, 300_000);

afterEach(stopAllProcesses);

/** The one snippet of the docs that runs on `kind`, as written (test/support/readme-examples.ts). */
function snippet(kind: SnippetKind): string {
  const found = docSnippets().filter((s) => s.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind} snippet in the docs, found ${found.length}`);
  return found[0]!.code;
}

describe('Bun', () => {
  it('runs bun test files: the suite over a port, the dispatcher refused at once, require(), MSW setupServer', async () => {
    const run = await runProcess([BUN, 'test'], { cwd: projects.bun, env });
    expect(run.stderr).toMatch(/\b5 pass\b/);
    expect(run.stderr).toMatch(/\b0 fail\b/);
    expect(run.code).toBe(0);
  });

  it('runs both bins under bun: --version, the mock, and the suite passing against it', async () => {
    const bin = (name: string) => join(projects.bun, 'node_modules', '.bin', name);
    for (const name of ['petstore-mock', 'petstore-conformance']) {
      const run = await runProcess([BUN, bin(name), '--version'], { cwd: projects.bun, env });
      expect(run.stdout.trim()).toBe(pkg.version);
    }
    const mock = spawnProcess([BUN, bin('petstore-mock'), '--port', '0', '--quiet'], { cwd: projects.bun, env });
    const [, url] = await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n/);
    const suite = await runProcess([BUN, bin('petstore-conformance'), '--base-url', url!], {
      cwd: projects.bun,
      env: { ...env, PETSTORE_API_KEY: 'petstore-dev-key' },
    });
    expect(suite.stdout).toMatch(/\b0 failed\b/);
    expect(suite.code).toBe(0);
  });

  describe('the conformance bin under bun and under node, against a server that breaks the rules', () => {
    let server: Server;
    let baseUrl = '';
    beforeAll(async () => {
      server = createServer(breakingServer);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('gives the same verdicts, bodies, report and exit code, follows no redirect, inflates nothing, caps bodies and hides the key', async () => {
      const bin = join(projects.bun, 'node_modules', 'petstore-toolkit', 'dist', 'conformance', 'cli.js');
      const args = [bin, '--base-url', baseUrl, '--reporter', 'json', '--run-id', 'same', '--concurrency', '1'];
      const options = { cwd: projects.bun, env: { ...env, PETSTORE_API_KEY: KEY } };
      const [underBun, underNode] = await Promise.all([
        runProcess([BUN, ...args], options),
        runProcess([process.execPath, ...args], options),
      ]);
      expect(underNode.code).toBe(1);
      expect(underBun.code).toBe(underNode.code);
      expect(underBun.stdout + underBun.stderr).not.toContain(KEY);
      const bunReport = comparable(underBun.stdout);
      expect(bunReport).toEqual(comparable(underNode.stdout));
      const exchanges = bunReport.flatMap((r) => r.exchanges);
      expect(exchanges.some((e) => e.response?.status === 302)).toBe(true); // not followed
      expect(exchanges.some((e) => e.response?.headers['content-encoding'] === 'gzip')).toBe(true);
      expect(exchanges.some((e) => e.error?.code === 'PETSTORE_BODY_TOO_LARGE')).toBe(true);
    });
  });
});

describe('Deno', () => {
  it('imports the package with npm: specifiers and runs the suite over a port and through the dispatcher', async () => {
    const run = await runProcess(
      [DENO, 'run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', 'main.mjs'],
      {
        cwd: projects.deno,
        env,
      },
    );
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as Record<string, { passed: number; failed: number }>;
    expect(result.overPort).toMatchObject({ failed: 0 });
    expect(result.viaDispatcher).toMatchObject({ failed: 0 });
    expect(result.overPort!.passed).toBeGreaterThan(50);
    expect(result.viaDispatcher!.passed).toBe(result.overPort!.passed);
    expect(result.fetched).toEqual([200, 2]);
    expect(run.code).toBe(0);
  });

  it("runs docs/runtimes.md's Deno snippet as written", async () => {
    writeFileSync(join(projects.deno, 'snippet.ts'), snippet('deno'));
    const run = await runProcess(
      [DENO, 'run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', 'snippet.ts'],
      { cwd: projects.deno, env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('runs both bins under deno: the mock, and the suite passing against it', async () => {
    const deno = [DENO, 'run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-read', '--allow-env'];
    const mock = spawnProcess([...deno, 'node_modules/.bin/petstore-mock', '--port', '0', '--quiet'], {
      cwd: projects.deno,
      env,
    });
    const [, url] = await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n/);
    const suite = await runProcess([...deno, 'node_modules/.bin/petstore-conformance', '--base-url', url!], {
      cwd: projects.deno,
      env: { ...env, PETSTORE_API_KEY: 'petstore-dev-key' },
    });
    expect(suite.stdout).toMatch(/\b0 failed\b/);
    expect(suite.code).toBe(0);
  });
});

describe("Playwright (Debian's Chromium through playwright-core)", () => {
  it.runIf(existsSync(CHROMIUM))("runs docs/runtimes.md's Playwright snippet as written", async () => {
    writeFileSync(join(projects.playwright, 'snippet.mjs'), snippet('playwright'));
    const run = await runProcess([process.execPath, 'snippet.mjs'], {
      cwd: projects.playwright,
      env: { ...env, CHROMIUM },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('503 [ 503 ]');
    expect(run.code).toBe(0);
  });

  it.runIf(existsSync(CHROMIUM))(
    "answers the page's fetch through @msw/playwright, then a 503 scenario on the next call, then reset()",
    async () => {
      const run = await runProcess([process.execPath, 'petstore.mjs'], {
        cwd: projects.playwright,
        env: { ...env, CHROMIUM },
      });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        listed: [200, 5],
        forced: [503, 'service_unavailable'],
        after: 200,
        created: [201, 'Rex'],
        journal: [200, 503, 200],
        reset: [200, 5],
      });
      expect(run.code).toBe(0);
    },
  );
});

/**
 * Never asks for the key; lists behind a gzip label that only an inflating
 * client could read, redirects every pet, and answers the one request with a
 * lowercase `bearer` with 2 MiB.
 */
function breakingServer(req: IncomingMessage, res: ServerResponse): void {
  // A wrong key is refused, so that auth.bearerLowercase's control holds and its request (the capped body) is sent.
  if (req.headers.authorization?.endsWith('-wrong-key'))
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end('{"code":"unauthorized","message":"wrong key","status":401}');
  else if (req.headers.authorization?.startsWith('bearer '))
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[${'0,'.repeat(1024 * 1024)}0]`);
  else if (req.method === 'GET' && /^\/v1\/pets\/[^/?]+/.test(req.url!))
    res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
  else if (req.method === 'POST') res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
  else res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('[]'));
}

interface ComparableResult {
  id: string;
  outcome: string;
  exchanges: {
    response?: { status: number; headers: Record<string, string> };
    error?: { code: string };
  }[];
}

/** The cases of a JSON report without what differs from run to run (times, dates). */
function comparable(stdout: string): ComparableResult[] {
  const report = JSON.parse(stdout) as { cases: Record<string, unknown>[] };
  const strip = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value, (key, v) => (key === 'durationMs' || key === 'date' ? undefined : v)));
  return report.cases.map(strip) as ComparableResult[];
}
