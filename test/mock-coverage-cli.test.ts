/**
 * The mock's command with client coverage and the sunset tried early:
 * `--as-of DATE`, `--coverage FILE` (JSON on stop, the table on stderr),
 * `--coverage-html FILE` and `--coverage-require` (exit 1 on stop when a
 * listed response was never received), `--fail-on-invalid-requests` (exit 1 on
 * stop when a client sent a request the contract refuses).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, spawnProcess, tsxEntry } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = { authorization: 'Bearer petstore-dev-key' };

async function start(args: string[]) {
  const mock = spawnProcess([...tsxEntry('mock/node/cli.ts'), '--port', '0', '--quiet', ...args]);
  const url = (await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n[\s\S]*Try:/))[1]!;
  return { mock, url };
}

describe('--as-of', () => {
  it('2030-12-05: getPet is gone (a 404 Error, as an unknown route), the listing stays', async () => {
    const { mock, url } = await start(['--as-of', '2030-12-05']);
    try {
      const gone = await fetch(`${url}/pets/1`, { headers: AUTH });
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ code: 'route_not_found', status: 404 });
      expect((await fetch(`${url}/pets`, { headers: AUTH })).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('2030-12-04: getPet answers 200 with its Sunset', async () => {
    const { mock, url } = await start(['--as-of', '2030-12-04']);
    try {
      const ok = await fetch(`${url}/pets/1`, { headers: AUTH });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    } finally {
      await mock.stop();
    }
  });

  it('a date that is not a date: exit 2 with one line', async () => {
    const run = await runProcess([...tsxEntry('mock/node/cli.ts'), '--as-of', '2030-13-01']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--as-of must be a date such as 2030-12-05, got "2030-13-01"');
  });
});

describe('--coverage', () => {
  it('on stop writes the JSON and the page, prints the table, and --coverage-require fails the run for what was never received', async () => {
    const json = join(dir, 'coverage.json');
    const html = join(dir, 'coverage.html');
    const { mock, url } = await start([
      '--coverage',
      json,
      '--coverage-html',
      html,
      '--coverage-require',
      'getPet 200,getPet 404',
    ]);
    await fetch(`${url}/pets/1`, { headers: AUTH });
    await fetch(`${url}/pets?limit=0`, { headers: AUTH });
    const exit = await mock.stop('SIGTERM');
    expect(exit.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.responses.find((r: { id: string }) => r.id === 'getPet 200').count).toBe(1);
    expect(report.invalidRequests[0].example.request).toBe('GET /v1/pets?limit=0');
    expect(mock.stderr()).toMatch(/^getPet 200 +yes +1 +client 1$/m);
    expect(mock.stderr()).toContain("the client's tests never exercised getPet 404");
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h1>Petstore contract coverage</h1>');
    expect(page).toContain('Never received: <strong>');
  });

  it('--fail-on-invalid-requests: exit 1 naming each kind a client sent unforced; exit 0 when it sent none', async () => {
    const sloppy = await start(['--fail-on-invalid-requests']);
    await fetch(`${sloppy.url}/pets?limit=0`, { headers: AUTH });
    // Forced by the test (a Prefer), so not the client's mistake: it alone would not fail the run.
    await fetch(`${sloppy.url}/pets`, { headers: { ...AUTH, prefer: 'code=401' } });
    const failed = await sloppy.mock.stop('SIGTERM');
    expect(failed.code).toBe(1);
    expect(sloppy.mock.stderr()).toContain('petstore-mock: the client sent requests the contract refuses:');
    expect(sloppy.mock.stderr()).toContain('GET /v1/pets?limit=0 answered 400');

    const careful = await start(['--fail-on-invalid-requests']);
    await fetch(`${careful.url}/pets?limit=5`, { headers: AUTH });
    await fetch(`${careful.url}/pets`, { headers: { ...AUTH, prefer: 'code=401' } });
    const passed = await careful.mock.stop('SIGTERM');
    expect(passed.code, careful.mock.stderr()).toBe(0);
    expect(careful.mock.stderr()).not.toContain('contract refuses:');
  });
});
