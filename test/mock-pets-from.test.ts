/**
 * `petstore-mock --pets-from URL` (`petsFrom`): the mock starts with what
 * another Petstore lists, read with GET only, exactly as read, or not at all.
 * The source is another mock on a port (its journal shows what was sent) or a
 * small server that breaks the contract.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, PetstoreMockError, startMockServer } from '../mock/node/index.ts';
import { type Ran, runProcess, spawnProcess, tsxEntry } from './support/processes.ts';

const SOURCE_KEY = 'source-key-2f9a';
const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function source(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const mock = await startMockServer({ port: 0, apiKeys: [SOURCE_KEY], ...options });
  started.push(mock);
  return mock;
}

/** A server on 127.0.0.1 that answers every request with `status` and `body`. */
async function answering(status: number, body: string): Promise<string> {
  const server: Server = createServer((_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(body),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  started.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runProcess([...tsxEntry('mock/node/cli.ts'), ...args], {
    env: { ...process.env, PETSTORE_SOURCE_API_KEY: SOURCE_KEY, ...env },
    timeoutMs: 120_000, // a tsx process: seconds to start on a loaded machine
  });
}

describe('petsFrom in process', () => {
  it('holds exactly the pets the source lists, read with GET only; reset() goes back to them', async () => {
    const from = await source({ seed: 7, count: 60 });
    const odd = { name: 'Ünïcode "quoted" \\ name\u2028', categoryId: 2 ** 52, status: 'pending' as const };
    const created = await fetch(`${from.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SOURCE_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(odd),
    });
    expect(created.status).toBe(201);
    from.clearRequests();
    let read: { count: number; fullListings: string[]; requests: number } | undefined;
    const copy = await startMockServer({
      port: 0,
      petsFrom: { url: from.url, apiKey: SOURCE_KEY },
      onPetsRead: (r) => {
        read = r;
      },
    });
    started.push(copy);
    expect(copy.pets.all()).toEqual(from.pets.all());
    expect(read).toEqual({ count: 61, fullListings: [], requests: 4 });
    expect(from.requests().map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
    await fetch(`${copy.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'new', categoryId: 1 }),
    });
    expect(copy.pets.size).toBe(62);
    copy.reset();
    expect(copy.pets.all()).toEqual(from.pets.all());
  });

  it('a source URL with credentials: the error names the source, never its password or key', async () => {
    const error = await startMockServer({
      petsFrom: { url: 'http://reader:pw-Secret-77@127.0.0.1:9/v1', apiKey: SOURCE_KEY },
    }).then(
      () => undefined,
      (e: unknown) => e as PetstoreMockError,
    );
    expect(error).toBeInstanceOf(PetstoreMockError);
    expect(error!.message).toMatch(/127\.0\.0\.1:9/);
    expect(error!.message).not.toContain('pw-Secret-77');
    expect(error!.message).not.toContain(SOURCE_KEY);
  });

  it('refuses petsFrom beside seed, count or pets, before reading anything', async () => {
    await expect(startMockServer({ petsFrom: { url: 'http://127.0.0.1:9/v1' }, seed: 3 })).rejects.toMatchObject({
      code: 'PETSTORE_MOCK_BAD_OPTION',
    });
  });

  it.each([
    [
      'a listing that is not an array of Pets',
      () => answering(200, '{"pets":[]}'),
      'did not answer a JSON array of Pets',
    ],
    ['a 500', () => answering(500, '{}'), 'answered 500, not 200'],
    [
      'an id beyond 2^53',
      () => answering(200, '[{"id":9007199254740993,"name":"a","categoryId":1,"status":"sold"}]'),
      'beyond 2^53',
    ],
    [
      'a status filter it does not honour',
      () => answering(200, '[{"id":1,"name":"a","categoryId":1,"status":"available"}]'),
      'the filter is not honoured',
    ],
  ])('a source answering %s: a PetstoreMockError, and no mock', async (_what, make, message) => {
    const url = await make();
    const error = await startMockServer({ port: 0, petsFrom: { url } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PetstoreMockError);
    expect((error as Error).message).toContain(message);
  });
});

describe('petstore-mock --pets-from', () => {
  it('starts with the source pets, says how many, and warns when a listing came back full', async () => {
    const from = await source({ seed: 11, count: 150 });
    const mock = spawnProcess([...tsxEntry('mock/node/cli.ts'), '--port', '0', '--pets-from', from.url], {
      env: { ...process.env, PETSTORE_SOURCE_API_KEY: SOURCE_KEY },
    });
    started.push({ close: async () => void (await mock.stop()) });
    const url = (await mock.waitForOutput(/ at (http:\/\/\S+\/v1)\n[\s\S]*Try:/))[1]!;
    // What the interface lets anyone see: the unfiltered listing and each status's, at limit 100.
    const visible = async (base: string, key: string) => {
      const seen = new Map<number, unknown>();
      for (const query of ['', '&status=available', '&status=pending', '&status=sold']) {
        const response = await fetch(`${base}/pets?limit=100${query}`, { headers: { authorization: `Bearer ${key}` } });
        for (const pet of (await response.json()) as { id: number }[]) seen.set(pet.id, pet);
      }
      return [...seen.entries()].sort(([a], [b]) => a - b);
    };
    const expected = await visible(from.url, SOURCE_KEY);
    expect(expected.length).toBeLessThan(from.pets.size);
    expect(mock.stdout()).toMatch(new RegExp(`^Read ${expected.length} pets from ${from.url} \\(4 GET requests`));
    expect(mock.stdout()).toContain(`serving ${expected.length} pets (from ${from.url})`);
    expect(mock.stderr()).toContain("warning: the source's listing ?limit=100 came back full");
    expect(mock.stdout() + mock.stderr()).not.toContain(SOURCE_KEY);
    expect(await visible(url, 'petstore-dev-key')).toEqual(expected);
  });

  it('a source that refuses the key: exit 2 with one line and the hint, and the key nowhere', async () => {
    const from = await source();
    const run = await cli(['--port', '0', '--pets-from', from.url], { PETSTORE_SOURCE_API_KEY: 'wrong-source-key' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-mock: GET ${from.url}/pets?limit=100 answered 401, not 200 (set PETSTORE_SOURCE_API_KEY to its key)`,
    );
    expect(run.stdout).toBe('');
  });

  it('a source that is not there: exit 2 naming it', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await cli(['--port', '0', '--pets-from', `http://127.0.0.1:${port}/v1`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-mock: GET http://127.0.0.1:${port}/v1/pets?limit=100 failed: ECONNREFUSED`,
    );
  });

  it('--pets-from with --seed or --fixtures: exit 2 before reading', async () => {
    const run = await cli(['--pets-from', 'http://127.0.0.1:9/v1', '--seed', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--pets-from cannot go with --seed');
  });
});
