/**
 * The CLI as a user runs it: a child process against the fake on port 0.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ran, runProcess, tsxEntry } from '../../test/support/processes.ts';
import { type FakePetstore, startFakePetstore } from './fake-petstore.ts';

const KEY = 'cli-secret-key-5f2a';

function cli(args: string[], env: Record<string, string> = {}, entry = tsxEntry('conformance/cli.ts')): Promise<Ran> {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...rest } = process.env;
  return runProcess([...entry, ...args], { env: { ...rest, NO_COLOR: '1', ...env } });
}

let fake: FakePetstore | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('petstore-conformance CLI', () => {
  it('exits 0 against a conforming server and writes every reporter, never the key', async () => {
    fake = await startFakePetstore({ apiKey: KEY, choices: { echoAuthorization: true } });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
    const run = await cli(
      [
        '--base-url',
        fake.url,
        '--reporter',
        'pretty',
        '--reporter',
        `json=${dir}/out/report.json`,
        '--reporter',
        `junit=${dir}/out/junit.xml`,
      ],
      { PETSTORE_API_KEY: KEY },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/);
    const json = readFileSync(`${dir}/out/report.json`, 'utf8');
    const xml = readFileSync(`${dir}/out/junit.xml`, 'utf8');
    expect(JSON.parse(json).ok).toBe(true);
    expect(xml).toContain('<testsuites');
    for (const text of [run.stdout, run.stderr, json, xml]) expect(text).not.toContain(KEY);
  });

  it('exits 1 against a broken server, naming the case, and the key stays hidden', async () => {
    fake = await startFakePetstore({
      apiKey: KEY,
      violations: ['basicAccepted'],
      choices: { echoAuthorization: true },
    });
    const run = await cli(['--base-url', fake.url, '--api-key', KEY]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL auth\.listPets\.basic /m);
    expect(run.stdout).toContain('Authorization: Basic [REDACTED]');
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('exits 0 with a baseline holding the known failures, and --env production is read-only', async () => {
    fake = await startFakePetstore({ apiKey: KEY, violations: ['basicAccepted'] });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
    writeFileSync(
      `${dir}/baseline.json`,
      JSON.stringify(['auth.*.basic', 'auth.listPets.basic', 'auth.createPet.basic', 'auth.getPet.basic']),
    );
    const before = fake.pets.size;
    const run = await cli(['--env', 'production', '--baseline', `${dir}/baseline.json`, '--reporter', 'json'], {
      PETSTORE_PRODUCTION_URL: fake.url,
      PETSTORE_API_KEY: KEY,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.options.readOnly).toBe(true);
    expect(report.baseline.known).toContain('auth.listPets.basic');
    expect(fake.pets.size).toBe(before);
  });

  it('exits 2 with a one-line reason when the target is unreachable', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    const run = await cli(['--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('cannot reach');
    expect(run.stdout).toBe('');
  });

  it('exits 2 for bad arguments and for a rejected key', async () => {
    const bad = await cli(['--reporter', 'xml', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^petstore-conformance: unknown reporter "xml" \(pretty, json, junit, html, har\) \(see --help\)\n$/,
    );
    fake = await startFakePetstore({ apiKey: 'the-real-key' });
    const rejected = await cli(['--base-url', fake.url, '--api-key', KEY]);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain('rejected');
    expect(rejected.stderr).not.toContain(KEY);
  });

  it('--generate finds a bug no fixed case sends: exit 1, the shrunk request as curl, the seed printed', async () => {
    fake = await startFakePetstore({ apiKey: KEY, bugs: ['negativeId500'] });
    const run = await cli(['--base-url', fake.url, '--generate', '200', '--seed', '1', '--only', 'generated'], {
      PETSTORE_API_KEY: KEY,
    });
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toContain('seed 1');
    expect(run.stdout).toMatch(/FAIL generated\.getPet\.no5xx/);
    expect(run.stdout).toContain(`$ curl -sS -i '${fake.url}/pets/-1'`);
    expect(run.stdout).toContain('Generated 200 requests per operation with seed 1');
    expect(run.stdout).not.toContain(KEY);
  });

  it('the built bin shows help', async () => {
    const run = await cli(['--help'], {}, [process.execPath, 'dist/conformance/cli.js']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npx petstore-conformance');
  });
});
