/**
 * A mock reached over a network: off loopback its control endpoints need a control key. Without one it refuses to
 * start, saying how to set one; with one, over a real socket, every control endpoint but health refuses a request
 * without it (401), an API key included, and the key is hidden wherever the API key is. Keys never have to be on
 * the command line, where `ps` shows them: off loopback they are refused there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PetstoreMockError, startMockServer } from '../mock/node/index.ts';
import { runProcess, spawnProcess, tsxEntry } from './support/processes.ts';

const CONTROL_KEY = 'control-key-5f0c1e9a7b2d4c68';
const API_KEY = 'sandbox-api-key-2718';
const dir = mkdtempSync(join(tmpdir(), 'control-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('off loopback', () => {
  it('the command refuses to start without a control key, naming how to set one', async () => {
    const run = await runProcess([...tsxEntry('mock/node/cli.ts'), '--host', '0.0.0.0', '--port', '0'], {
      env: { ...process.env, PETSTORE_CONTROL_KEY: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is required to listen on 0.0.0.0, beyond loopback');
    expect(run.stderr).toContain('PETSTORE_CONTROL_KEY');
  });

  it('refuses keys on the command line, where ps shows them', async () => {
    for (const flag of ['--api-key', '--control-key']) {
      const run = await runProcess([...tsxEntry('mock/node/cli.ts'), '--host', '0.0.0.0', flag, 'k'.repeat(20)]);
      expect(run.code, flag).toBe(2);
      expect(run.stderr).toContain(`${flag} shows in ps on a mock that listens on 0.0.0.0`);
    }
  });

  it('startMockServer refuses too: a PetstoreMockError naming controlKey', async () => {
    await expect(startMockServer({ host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      constructor: PetstoreMockError,
      option: 'controlKey',
    });
  });

  it('with a control key: the controls refuse requests without it (401), the API and health stay as they were', async () => {
    const keys = join(dir, 'api-keys');
    writeFileSync(keys, `${API_KEY}\n`);
    const mock = spawnProcess(
      [...tsxEntry('mock/node/cli.ts'), '--host', '0.0.0.0', '--port', '0', '--api-keys-file', keys],
      { env: { ...process.env, PETSTORE_CONTROL_KEY: CONTROL_KEY } },
    );
    try {
      const port = (await mock.waitForOutput(/ at http:\/\/[^:]+:(\d+)\/v1\n[\s\S]*Try:/))[1];
      const base = `http://127.0.0.1:${port}`;
      const reset = (authorization?: string) =>
        fetch(`${base}/__control/reset`, { method: 'POST', headers: authorization ? { authorization } : {} });

      const none = await reset();
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ code: 'control_key_required', status: 401 });
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="petstore-control"');
      expect((await reset(`Bearer ${API_KEY}`)).status).toBe(401);
      expect((await reset('Bearer not-the-control-key-at-all')).status).toBe(401);
      const scenario = await fetch(`${base}/__control/scenarios`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'GET', path: '/v1/pets', status: 503 }),
      });
      expect(scenario.status).toBe(401);
      expect((await fetch(`${base}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${API_KEY}` } })).status).toBe(
        200,
      );
      expect((await fetch(`${base}/__control/health`)).status).toBe(200);
      expect((await reset(`Bearer ${CONTROL_KEY}`)).status).toBe(200);

      // Hidden as the API key is: an API request carrying it is journaled and logged without it.
      await fetch(`${base}/v1/pets?note=${CONTROL_KEY}`, { headers: { authorization: `Bearer ${API_KEY}` } });
      const journal = await fetch(`${base}/__control/requests`, {
        headers: { authorization: `Bearer ${CONTROL_KEY}` },
      });
      const text = await journal.text();
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain(CONTROL_KEY);
    } finally {
      await mock.stop();
    }
    expect(mock.stderr()).not.toContain(CONTROL_KEY);
    expect(mock.stdout()).not.toContain(CONTROL_KEY);
    expect(mock.stdout()).not.toContain(API_KEY);
  });
});
