/**
 * Secrets and exposure: the mock CLI never writes a configured API key to
 * stdout or stderr, whatever a client sends (right key, wrong key, the key in
 * a query string, a path, another header or a body); it binds to 127.0.0.1
 * unless told otherwise, and warns on stderr when told otherwise.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, startMockServer } from '../../mock/node/index.ts';
import { type Spawned, spawnProcess, stopAllProcesses, tsxEntry } from '../support/processes.ts';

const CLI = fileURLToPath(new URL('../../mock/node/cli.ts', import.meta.url));
/** Characters that URL encoding changes, so encoded forms are tested too. */
const KEY = 'sk_live-Zq8/Tn+K3y=x~!';
const ENV_KEYS = ['env-k3y-Alpha_91', 'env-k3y-Beta/77'];

interface RunningCli {
  process: Spawned;
  /** Base URL as printed by the CLI. */
  printedUrl: string;
  /** Where to send traffic: always 127.0.0.1, whatever the bind address. */
  origin: string;
}

afterEach(stopAllProcesses);

function withoutPetstoreVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')));
}

async function startCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const cli = spawnProcess([...tsxEntry(CLI), '--port', '0', ...args], {
    env: { ...withoutPetstoreVariables(), ...env },
  });
  const printedUrl = (await cli.waitForOutput(/ at (http:\/\/\S+)\n/, 20_000))[1]!;
  return { process: cli, printedUrl, origin: `http://127.0.0.1:${new URL(printedUrl).port}` };
}

async function stop(cli: RunningCli): Promise<{ stdout: string; stderr: string }> {
  await cli.process.stop('SIGTERM');
  return { stdout: cli.process.stdout(), stderr: cli.process.stderr() };
}

/** Every way a client might send (or leak) the key; returns the statuses seen. */
async function sendKeyEverywhere(origin: string, key: string): Promise<number[]> {
  const encoded = encodeURIComponent(key);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const partly = `${encodeURIComponent(key.slice(0, 3))}${key.slice(3)}`.replace(
    /[/+=]/,
    (c) => `%${c.charCodeAt(0).toString(16)}`,
  );
  const requests: [string, RequestInit][] = [
    ['/v1/pets?limit=2', { headers: { authorization: `Bearer ${key}` } }],
    ['/v1/pets', { headers: { authorization: `Bearer ${key}x` } }],
    ['/v1/pets', { headers: { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` } }],
    [`/v1/pets?api_key=${encoded}`, {}],
    [`/v1/pets?api_key=${lowerHex}&token=${key}&t2=${partly}`, {}],
    [`/v1/pets?k=%${key.charCodeAt(0).toString(16)}${key.slice(1)}`, {}],
    [`/v1/pets/${encoded}`, { headers: { authorization: `Bearer ${key}` } }],
    [`/v1/${encoded}?k=${encoded}`, {}],
    ['/v1/pets', { headers: { 'x-api-key': key, cookie: `key=${key}` } }],
    [
      '/v1/pets',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: key, categoryId: 1 }),
      },
    ],
    [
      '/v1/pets',
      {
        method: 'POST',
        headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
        body: `{"name":"${key}"`,
      },
    ],
  ];
  const statuses: number[] = [];
  for (const [path, init] of requests) {
    const response = await fetch(`${origin}${path}`, init);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

/** Throws if `text` holds the key in any spelling a reader could turn back into it (plain, percent-encoded in any case, base64). */
function expectNoKey(text: string, key: string): void {
  expect(text).not.toContain(key);
  const decoded = text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  expect(decoded).not.toContain(key);
  expect(text).not.toContain(Buffer.from(`user:${key}`).toString('base64'));
}

describe('the mock CLI and API keys', () => {
  it('never prints a key given with --api-key, whatever clients send', async () => {
    const cli = await startCli(['--api-key', KEY]);
    const statuses = await sendKeyEverywhere(cli.origin, KEY);
    expect(statuses[0]).toBe(200);
    expect(statuses[9]).toBe(201);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(5);
    const { stdout, stderr } = await stop(cli);
    // The request log is on: one line per request, each with the key redacted.
    expect(stderr.split('\n').filter((l) => /^(GET|POST) /.test(l))).toHaveLength(statuses.length);
    expectNoKey(stdout + stderr, KEY);
  }, 30_000);

  it('never prints keys given in PETSTORE_API_KEYS, and accepts each of them', async () => {
    const cli = await startCli([], { PETSTORE_API_KEYS: ENV_KEYS.join(',') });
    for (const key of ENV_KEYS) expect((await sendKeyEverywhere(cli.origin, key))[0]).toBe(200);
    const { stdout, stderr } = await stop(cli);
    for (const key of ENV_KEYS) expectNoKey(stdout + stderr, key);
  }, 30_000);
});

describe('where the mock listens', () => {
  it('binds to 127.0.0.1 by default, from the library and the CLI, without a warning', async () => {
    const mock = await startMockServer({ port: 0 });
    expect(new URL(mock.url).hostname).toBe('127.0.0.1');
    await mock.close();
    const cli = await startCli(['--api-key', KEY]);
    expect(new URL(cli.printedUrl).hostname).toBe('127.0.0.1');
    const { stderr } = await stop(cli);
    expect(stderr).not.toMatch(/warning/i);
  }, 30_000);

  it('treats empty PETSTORE_HOST and PETSTORE_API_KEYS as unset: loopback, and the development key shown as the one in use', async () => {
    const cli = await startCli([], { PETSTORE_HOST: '', PETSTORE_API_KEYS: ' , ' });
    expect(new URL(cli.printedUrl).hostname).toBe('127.0.0.1');
    expect(cli.process.stdout()).toContain(`API key: ${DEFAULT_API_KEY}`);
    const response = await fetch(`${cli.origin}/v1/pets?limit=1`, {
      headers: { authorization: `Bearer ${DEFAULT_API_KEY}` },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const { stderr } = await stop(cli);
    expect(stderr).not.toMatch(/warning/i);
  }, 30_000);

  it('warns on stderr when bound to all interfaces (traffic still only to 127.0.0.1)', async () => {
    const cli = await startCli(['--host', '0.0.0.0'], {
      PETSTORE_API_KEYS: KEY,
      PETSTORE_CONTROL_KEY: 'control-key-for-this-test-0451',
    });
    expect(new URL(cli.printedUrl).hostname).toBe('0.0.0.0');
    const response = await fetch(`${cli.origin}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const { stdout, stderr } = await stop(cli);
    expect(stderr).toMatch(/warning: bound to 0\.0\.0\.0, not loopback/);
    expectNoKey(stdout + stderr, KEY);
    expectNoKey(stdout + stderr, 'control-key-for-this-test-0451');
  }, 30_000);
});
