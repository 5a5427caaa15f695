import { mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedPets } from '../mock/core/seed.ts';
import { type Ran, runProcess, spawnProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

afterEach(stopAllProcesses);

interface Started {
  url: string;
  stdout: string;
  stderr: () => string;
}

/** Starts the mock CLI as a new user would and waits for its banner. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
  entry = tsxEntry('mock/node/cli.ts'),
): Promise<Started> {
  // Its own process group, so that npm's child goes too when the test stops it.
  const mock = spawnProcess([...entry, ...args], { env: { ...process.env, ...env }, detached: true });
  const match = await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n[\s\S]*Try:/);
  return { url: match[1]!, stdout: mock.stdout(), stderr: mock.stderr };
}

function runCli(args: string[]): Promise<Ran> {
  return runProcess([...tsxEntry('mock/node/cli.ts'), ...args]);
}

async function listAll(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/pets?limit=100`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('the mock CLI', () => {
  it('prints the URL and the development key, and serves seeded pets with it', async () => {
    const { url, stdout } = await startCli(['--port', '0']);
    expect(stdout).toContain('API key: petstore-dev-key');
    expect(JSON.parse(await listAll(url, 'petstore-dev-key'))).toHaveLength(50);
  });

  it('serves byte-identical data for the same seed, and different data for another', async () => {
    const args = ['--port', '0', '--seed', '7', '--count', '150', '--api-key', 'K', '--quiet'];
    const [a, b, c] = await Promise.all([
      startCli(args),
      startCli(args),
      startCli(['--port', '0', '--seed', '8', '--count', '150', '--api-key', 'K']),
    ]);
    const [bodyA, bodyB, bodyC] = await Promise.all([listAll(a.url, 'K'), listAll(b.url, 'K'), listAll(c.url, 'K')]);
    expect(bodyA).toBe(bodyB);
    expect(bodyA).not.toBe(bodyC);
    expect(JSON.parse(bodyA)).toHaveLength(100);
  });

  it('takes its settings from PETSTORE_* variables, and never prints or logs a configured key', async () => {
    const secret = 'sekret-env-key-42';
    const started = await startCli([], {
      PETSTORE_PORT: '0',
      PETSTORE_COUNT: '3',
      PETSTORE_API_KEYS: `${secret},other`,
    });
    expect(JSON.parse(await listAll(started.url, secret))).toHaveLength(3);
    await fetch(`${started.url}/pets?api_key=${secret}`, { headers: { authorization: `Bearer ${secret}x` } });
    await new Promise((r) => setTimeout(r, 100));
    expect(started.stderr()).toContain('GET /v1/pets?api_key=[REDACTED] 401');
    expect(started.stdout + started.stderr()).not.toContain(secret);
  });

  it.each([
    ['npm start', ['npm', 'start', '--silent', '--']],
    ['the built bin', [process.execPath, 'dist/mock/node/cli.js']],
  ])('starts through %s', async (_title, entry) => {
    const { url } = await startCli(['--port', '0', '--count', '3', '--quiet'], {}, entry);
    expect(JSON.parse(await listAll(url, 'petstore-dev-key'))).toEqual(seedPets({ count: 3 }));
  });

  it("the built bin loads faker only for pets that do not ship as data, and serves faker's pets either way", async () => {
    const bin = [process.execPath, '--import', './test/support/log-faker-loads.mjs', 'dist/mock/node/cli.js'];
    const plain = spawnProcess([...bin, '--port', '0', '--quiet']);
    const plainUrl = (await plain.waitForOutput(/ at (http:\/\/\S+\/v1)\n/))[1]!;
    expect(JSON.parse(await listAll(plainUrl, 'petstore-dev-key'))).toEqual(seedPets());
    expect(plain.stderr()).not.toContain('loaded faker');
    const seeded = spawnProcess([...bin, '--port', '0', '--quiet', '--seed', '7', '--count', '60']);
    const seededUrl = (await seeded.waitForOutput(/ at (http:\/\/\S+\/v1)\n/))[1]!;
    expect(JSON.parse(await listAll(seededUrl, 'petstore-dev-key'))).toEqual(seedPets({ seed: 7, count: 60 }));
    expect(seeded.stderr()).toContain('loaded faker');
  });

  it('treats empty PETSTORE_* variables as unset', async () => {
    // PETSTORE_PORT is overridden by --port here (its default, 4010, may be taken); count, seed, keys and host are not.
    const started = await startCli(['--port', '0'], {
      PETSTORE_PORT: '',
      PETSTORE_COUNT: '',
      PETSTORE_SEED: '',
      PETSTORE_API_KEYS: '',
      PETSTORE_HOST: '',
    });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(JSON.parse(await listAll(started.url, 'petstore-dev-key'))).toHaveLength(50);
  });

  it('starts from a fixtures file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-'));
    const file = join(dir, 'pets.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 10, name: 'Ten', categoryId: 1 },
        { id: 3, name: 'Three', categoryId: 2, status: 'sold' },
      ]),
    );
    const { url } = await startCli(['--port', '0', '--fixtures', file]);
    expect(JSON.parse(await listAll(url, 'petstore-dev-key')).map((p: { id: number }) => p.id)).toEqual([3, 10]);
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
      body: '{"name":"New","categoryId":1}',
    });
    expect(((await created.json()) as { id: number }).id).toBe(11);
  });

  it('takes any seed the library takes: the command has no bounds of its own (it refused 5000000000)', async () => {
    const { url } = await startCli(['--port', '0', '--count', '1', '--seed', '5000000000', '--quiet']);
    const listed = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(await listed.json()).toHaveLength(1);
  });

  it('serves the API at --base-path, writing Location under it, with the controls beside it', async () => {
    const { url } = await startCli(['--port', '0', '--count', '2', '--base-path', '/api/v1']);
    expect(new URL(url).pathname).toBe('/api/v1');
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
      body: '{"name":"New","categoryId":1}',
    });
    expect(created.headers.get('location')).toBe('/api/v1/pets/3');
    const reset = await fetch(new URL('/api/__control/reset', url), { method: 'POST' });
    expect(await reset.json()).toEqual({ reset: true, pets: 2 });
  });

  it.each([
    [['--base-path', '/api'], /--base-path must be a path ending in \/v1/],
    [['--count', '1000001'], /--count must be an integer from 0 to 1000000/],
    [['--port', 'x'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535, got 70000/],
    // The library's own bounds, not a second set in the command (which took seeds from -2^31 to 2^32 only).
    [['--seed', '1.5'], /--seed must be an integer, got "1.5"/],
    [
      ['--seed', '9007199254740993'],
      /--seed must be an integer from -\(2\^53 - 1\) to 2\^53 - 1, got "9007199254740993"/,
    ],
    [['--api-key', 'a b'], /--api-key must be strings of 1 to 4096 visible ASCII/],
    [['--as-of', '2030-02-30'], /--as-of must be a date such as 2030-12-05/],
    [['--fixtures', '/nonexistent.json'], /cannot read pets/],
    [['--bogus'], /Unknown option/],
    [['--latency', '500-100'], /--latency must be MS or MIN-MAX/],
    [['--latency', 'fast'], /--latency must be MS or MIN-MAX \(like 200 or 100-500\)/],
    [['--rate-limit', '0'], /--rate-limit must be an integer from 1 to 1000000/],
    [['--chaos', '1.5'], /--chaos must be a number from 0 to 1/],
    [['--journal-size=-1'], /--journal-size must be an integer from 0 to 100000/],
    [['--cors-origin', 'app.test:5173'], /--cors-origin: "app.test:5173" is not an origin/],
    [['--allowed-hosts', 'http://app.test/'], /--allowed-hosts: "http:\/\/app.test\/" is not a host name/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('shows every flag in --help', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of ['--port', '--host', '--seed', '--count', '--api-key', '--fixtures', '--quiet'])
      expect(stdout).toContain(flag);
    for (const flag of ['--cors-origin', '--allowed-hosts', '--no-cors', '--journal-bytes'])
      expect(stdout).toContain(flag);
    for (const flag of [
      '--base-path',
      '--latency',
      '--rate-limit',
      '--chaos',
      '--journal-size',
      'Prefer',
      '/__control/scenarios',
    ])
      expect(stdout).toContain(flag);
  });

  it('takes --rate-limit, --latency, --chaos and --journal-size from PETSTORE_* variables, and logs faults', async () => {
    const started = await startCli(['--port', '0'], {
      PETSTORE_RATE_LIMIT: '1',
      PETSTORE_LATENCY: '1-5',
      PETSTORE_CHAOS: '0',
      PETSTORE_JOURNAL_SIZE: '2',
    });
    const get = (prefer = '') =>
      fetch(`${started.url}/pets?limit=1`, { headers: { authorization: 'Bearer petstore-dev-key', prefer } });
    // Three requests in a few milliseconds cross at most one second boundary: two share a window, one is refused.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get()).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const origin = started.url.replace(/\/v1$/, '');
    expect((await (await fetch(`${origin}/__control/requests`)).json()) as unknown[]).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1_100));
    await get('fault=close').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(started.stderr()).toMatch(/GET \/v1\/pets\?limit=1 - fault=close \d/);
  });

  it('takes --cors-origin and --allowed-hosts, or PETSTORE_CORS_ORIGINS and PETSTORE_ALLOWED_HOSTS', async () => {
    const [flags, env] = await Promise.all([
      startCli(['--port', '0', '--cors-origin', 'http://app.test:5173', '--allowed-hosts', 'app.test,.dev.example']),
      startCli(['--port', '0'], {
        PETSTORE_CORS_ORIGINS: 'http://app.test:5173',
        PETSTORE_ALLOWED_HOSTS: 'app.test,.dev.example',
      }),
    ]);
    for (const { url } of [flags, env]) {
      const port = new URL(url).port;
      const journal = await rawGet(port, '/__control/requests', { host: 'app.test', origin: 'http://app.test:5173' });
      expect([journal.status, journal.allowOrigin]).toEqual([200, 'http://app.test:5173']);
      expect((await rawGet(port, '/__control/health', { host: 'x.dev.example' })).status).toBe(200);
      expect((await rawGet(port, '/__control/health', { host: 'evil.example' })).status).toBe(403);
      const other = await rawGet(port, '/__control/requests', { origin: 'http://localhost:3000' });
      expect(other.status).toBe(403);
    }
  });
});

/** A GET with exactly these headers (fetch would not send a Host of our choosing). */
function rawGet(
  port: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; allowOrigin?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, allowOrigin: res.headers['access-control-allow-origin'] as string }),
      );
    });
    req.on('error', reject);
  });
}
