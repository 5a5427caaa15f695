/** `petstore-mock --pact FILE`: the consumer contract written on stop, its names checked at start. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runProcess, spawnProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-pact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(stopAllProcesses);
const KEY = 'cli-pact-key-0123456789';

describe('petstore-mock --pact FILE', () => {
  it('writes the pact on stop, with the names given, the warnings on stderr and no key', async () => {
    const file = join(dir, 'pact.json');
    const mock = spawnProcess([
      ...tsxEntry('mock/node/cli.ts'),
      ...['--port', '0', '--quiet', '--api-key', KEY, '--pact', file, '--pact-consumer', 'shop-web'],
    ]);
    const url = (await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n[\s\S]*Try:/))[1]!;
    const headers = { authorization: `Bearer ${KEY}` };
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/pets`, { headers })).status).toBe(200);
    expect((await fetch(`${url}/pets?limit=0`, { headers })).status).toBe(400);
    const exit = await mock.stop('SIGTERM');
    expect(exit.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const pact = JSON.parse(text);
    expect(pact.consumer).toEqual({ name: 'shop-web' });
    expect(pact.provider).toEqual({ name: 'petstore' });
    expect(pact.interactions.map((i: { description: string }) => i.description)).toEqual(['listPets']);
    expect(text).not.toContain(KEY);
    expect(mock.stderr()).toMatch(/Wrote the pact \(1 interactions\)/);
    expect(mock.stderr()).toMatch(/warning: 1 kind\(s\) of request the contract refuses were left out/);
  });

  it('refuses an empty consumer name at start, under its flag, with exit 2', async () => {
    const ran = await runProcess([
      ...tsxEntry('mock/node/cli.ts'),
      ...['--port', '0', '--pact', join(dir, 'x.json'), '--pact-consumer', ''],
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/--pact-consumer must be a name, got none/);
  });
});
