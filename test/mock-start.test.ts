/**
 * mock/start.cjs, the fast start behind `npm start`: its bundle is rebuilt when
 * a source or the spec changes, and its V8 code cache is used only for the
 * bundle it was made from. Each test has a cache directory of its own
 * (PETSTORE_CACHE_DIR), so nothing here touches the one other tests use.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { seedPets } from '../mock/seed.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SPEC = join(ROOT, 'spec', 'petstore.openapi.yaml');
const running: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    running.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }),
  );
});

/** Runs `node mock/start.cjs` with its cache in `dir` until it serves; resolves with its URL. */
async function start(dir: string, nodeFlags: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [...nodeFlags, 'mock/start.cjs', '--port', '0', '--count', '3', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, PETSTORE_CACHE_DIR: dir },
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  for await (const chunk of child.stdout) {
    stdout += chunk;
    const match = / at (http:\/\/\S+\/v1)\n/.exec(stdout);
    if (match) return match[1]!;
  }
  throw new Error(`mock/start.cjs exited before it served: ${stderr}`);
}

/** Starts, checks it serves the seeded pets, and stops it (the code cache is written once it serves). */
async function startAndStop(dir: string, nodeFlags: string[] = []): Promise<void> {
  const url = await start(dir, nodeFlags);
  const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
  expect(await response.json()).toEqual(seedPets({ count: 3 }));
  const child = running.pop()!;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const files = (dir: string) => ({
  bundle: join(dir, 'cli.cjs'),
  cache: join(dir, 'cli.cjs.v8-cache'),
  manifest: join(dir, 'cli.inputs.json'),
});

/** What runBundle hashes: the bundle inside its CommonJS wrapper. */
function sourceHash(bundle: string): Buffer {
  return createHash('sha256')
    .update(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`)
    .digest();
}

describe('node mock/start.cjs', () => {
  it('builds the bundle once, then starts from it with the code cache it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
    const { bundle, cache } = files(dir);
    await startAndStop(dir);
    const written = readFileSync(cache);
    expect(written.subarray(0, 32)).toEqual(sourceHash(bundle));
    expect(written.length).toBeGreaterThan(100_000);
    // The spec's validators came generated (spec/validators.ts, standalone): no ajv compiler in the bundle, no schema compiled at start.
    const source = readFileSync(bundle, 'utf8');
    expect(source).toMatch(/function validate\d+\(data, \{ instancePath = ""/);
    expect(source).not.toMatch(/node_modules\/ajv\/dist\/(compile|core|2020)/);
    const [bundleMtime, cacheMtime] = [statSync(bundle).mtimeMs, statSync(cache).mtimeMs];
    await startAndStop(dir);
    // Neither rebuilt nor rewritten: the bundle was fresh, and V8 took the cache (a refused cache is written again).
    expect([statSync(bundle).mtimeMs, statSync(cache).mtimeMs]).toEqual([bundleMtime, cacheMtime]);
    expect(readFileSync(cache)).toEqual(written);
  });

  it('never uses a code cache made from another bundle, and replaces it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
    const { bundle, cache } = files(dir);
    await startAndStop(dir);
    // V8 would accept this data (it only compares the length of the source): only the hash tells it is another build's.
    const foreign = Buffer.concat([
      createHash('sha256').update('another build').digest(),
      readFileSync(cache).subarray(32),
    ]);
    writeFileSync(cache, foreign);
    await startAndStop(dir);
    expect(readFileSync(cache).subarray(0, 32)).toEqual(sourceHash(bundle));
  });

  it('passes the whole conformance suite, strict, built afresh and then from its code cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
    for (const build of ['fresh bundle', 'code cache']) {
      const url = await start(dir);
      const report = await runConformance({ baseUrl: url, apiKey: 'petstore-dev-key', strict: true });
      const notPassed = report.cases
        .filter((c) => c.outcome !== 'passed')
        .map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`);
      expect(notPassed, build).toEqual([]);
      expect(report.cases.length, build).toBeGreaterThan(50);
      const child = running.pop()!;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    expect(readFileSync(files(dir).cache).subarray(0, 32)).toEqual(sourceHash(files(dir).bundle));
  });

  it('rebuilds the bundle when the spec has changed since it was built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
    const { bundle, manifest } = files(dir);
    await startAndStop(dir);
    const inputs = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, number>;
    expect(inputs[SPEC]).toBe(statSync(SPEC).mtimeMs);
    const builtAt = statSync(bundle).mtimeMs;
    // As if the spec had been edited after the build.
    writeFileSync(manifest, JSON.stringify({ ...inputs, [SPEC]: inputs[SPEC]! - 1 }));
    await startAndStop(dir);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(builtAt);
    expect((JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, number>)[SPEC]).toBe(statSync(SPEC).mtimeMs);
  });

  it("still starts under --enable-source-maps (run by Node's own loader then, without the code cache)", async () => {
    await startAndStop(mkdtempSync(join(tmpdir(), 'petstore-start-')), ['--enable-source-maps']);
  });

  it('says in one line why it starts through tsx when the bundle cannot be built, and still starts', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-start-')), 'a-file');
    writeFileSync(file, '');
    const child = spawn(process.execPath, ['mock/start.cjs', '--help'], {
      cwd: ROOT,
      env: { ...process.env, PETSTORE_CACHE_DIR: join(file, 'cache') },
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [exitCode] = await once(child, 'exit');
    expect(stderr).toMatch(
      /^petstore-mock: starting through tsx \(slower\): the bundle could not be built: ENOTDIR[^\n]*\n/,
    );
    expect([exitCode, stdout]).toEqual([0, expect.stringMatching(/^Usage: npm start/)]);
  });

  it.each([
    [['--help'], 0, /Usage: npm start/],
    [['--count', 'x'], 2, /--count must be an integer/],
  ])('exits as the CLI does for %j', async (args, code, output) => {
    const child = spawn(process.execPath, ['mock/start.cjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, PETSTORE_CACHE_DIR: mkdtempSync(join(tmpdir(), 'petstore-start-')) },
    });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    const [exitCode] = await once(child, 'exit');
    expect(text).toMatch(output);
    expect(exitCode).toBe(code);
  });
});
