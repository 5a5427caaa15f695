/**
 * The mock on each database store (issue 40): the conformance suite's full
 * run passes; a create answered 201 survives `kill -9` right after the
 * answer, and the restarted mock serves the store as it is; a store it cannot
 * use is a one-line exit 2 naming the URL with its password hidden.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CaseResult, runConformance } from '../conformance/index.ts';
import { startMockServer } from '../mock/node/index.ts';
import { CONTROL_KEY, POSTGRES_PASSWORD, type Postgres, startPostgres } from './support/postgres.ts';
import { runProcess, spawnProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

const KEY = 'petstore-dev-key';
let postgres: Postgres;
let dir: string;

beforeAll(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-'));
}, 60_000);
afterAll(async () => {
  await postgres?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
afterEach(stopAllProcesses);

let files = 0;
const stores: [string, () => Promise<string>][] = [
  ['sqlite', async () => `sqlite:${join(dir, `store-${++files}.db`)}`],
  ['postgres', () => postgres.createDatabase()],
];

function failures(cases: CaseResult[]): string {
  return cases
    .filter((c) => c.outcome !== 'passed')
    .map((c) => `${c.id} (${c.outcome}): ${c.reason ?? ''} ${c.checks.filter((k) => !k.ok).map((k) => k.message)}`)
    .join('\n');
}

/** Runs `text` (statements, no result) on the database `store` names. */
async function runSql(store: string, text: string): Promise<void> {
  if (store.startsWith('sqlite:')) {
    const Database = (await import('better-sqlite3')).default;
    new Database(store.slice('sqlite:'.length)).exec(text).close();
    return;
  }
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  await client.query(text);
  await client.end();
}

/** The mock command on `store`, once it prints its banner; the number of pets it says it serves. */
async function startCommand(store: string) {
  const mock = spawnProcess([...tsxEntry('mock/node/cli.ts'), '--port', '0', '--quiet', '--store', store], {
    env: { ...process.env, PETSTORE_CONTROL_KEY: CONTROL_KEY },
  });
  const [, count, url] = await mock.waitForOutput(/serving (\d+) pets .* at (\S+)\n/, 30_000);
  return { mock, count: Number(count), url: url! };
}

describe.each(stores)('the mock on %s', (_name, newStore) => {
  it('passes the conformance suite, every case, strict included', async () => {
    const mock = await startMockServer({ store: await newStore(), controlKey: CONTROL_KEY });
    try {
      const report = await runConformance({ baseUrl: mock.url, apiKey: mock.apiKeys[0]!, strict: true });
      expect(failures(report.cases)).toBe('');
      expect(report.cases.length).toBeGreaterThan(50);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('holds the byte budget and the id limit: 507 store_full, 507 ids_exhausted; reset makes room', async () => {
    const mock = await startMockServer({ store: await newStore(), storeBytes: 12_000, controlKey: CONTROL_KEY });
    const create = async (name: string) => {
      const response = await fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
    };
    try {
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await create('n'.repeat(1_000)));
      const statuses = answers.map((a) => a.status);
      expect(statuses[0]).toBe(201);
      expect(statuses.slice(0, statuses.indexOf(507))).toEqual(statuses.filter((s) => s === 201));
      expect(statuses.filter((s) => s === 507).length).toBeGreaterThan(0);
      expect(answers.find((a) => a.status === 507)!.body).toMatchObject({ code: 'store_full' });
      expect(answers.find((a) => a.status === 507)!.body.message).toContain('--store-bytes');
      await expect(
        Promise.resolve(
          mock.replacePets(Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: 'x'.repeat(99), categoryId: 1 }))),
        ),
      ).rejects.toMatchObject({ code: 'PETSTORE_MOCK_STORE_FULL' });
      await mock.replacePets([{ id: Number.MAX_SAFE_INTEGER, name: 'last', categoryId: 1 }]);
      expect(await create('one more')).toMatchObject({ status: 507, body: { code: 'ids_exhausted' } });
      await mock.reset();
      expect(mock.pets.size).toBe(50);
      expect(await create('after reset')).toMatchObject({ status: 201 });
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('migrates a store of schema version 1 (no shared rate limit yet) at start, keeping its pets', async () => {
    const store = await newStore();
    const before = await startMockServer({ store, controlKey: CONTROL_KEY });
    const created = await fetch(`${before.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"from v1","categoryId":2}',
    });
    expect(created.status).toBe(201);
    await before.close();
    // What version 1 of the schema was: everything but the rate limit's table.
    await runSql(store, 'DROP TABLE petstore_rate; UPDATE petstore_schema SET version = 1');
    const after = await startMockServer({ store, rateLimit: 100, controlKey: CONTROL_KEY });
    try {
      expect(after.pets.size).toBe(51);
      const fetched = await fetch(`${after.url}/pets/51`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(await fetched.json()).toEqual({ id: 51, name: 'from v1', categoryId: 2 });
      expect(fetched.headers.get('ratelimit')).toMatch(/^"default";r=99;t=\d+$/);
    } finally {
      await after.close();
    }
  }, 60_000);

  it('keeps every create answered 201 through kill -9 right after the answer; the restart serves the store as it is', async () => {
    const store = await newStore();
    const first = await startCommand(store);
    expect(first.count).toBe(50);
    const created: { id: number; body: string }[] = [];
    const post = async (i: number) => {
      const response = await fetch(`${first.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `survivor ${i} \u2028 "é"`, categoryId: i, status: 'pending' }),
      });
      const body = await response.text();
      if (response.status === 201) created.push({ id: (JSON.parse(body) as { id: number }).id, body });
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(i)));
    await post(40);
    // The moment the last 201 is read: no clean shutdown, nothing flushed on the way out.
    first.mock.child.kill('SIGKILL');
    await first.mock.exited;
    expect(created).toHaveLength(41);

    const second = await startCommand(store);
    // Served as it is: not seeded again.
    expect(second.count).toBe(91);
    for (const { id, body } of created) {
      const response = await fetch(`${second.url}/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(await response.text()).toBe(body);
    }
    const next = await fetch(`${second.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"after","categoryId":1}',
    });
    expect(((await next.json()) as { id: number }).id).toBe(92);
  }, 90_000);
});

describe('a store the mock cannot use: one line, exit 2, the password hidden', () => {
  const run = (store: string) =>
    runProcess([...tsxEntry('mock/node/cli.ts'), '--port', '0', '--store', store], {
      timeoutMs: 30_000,
      env: { ...process.env, PETSTORE_CONTROL_KEY: CONTROL_KEY },
    });
  const oneLine = (stderr: string) => stderr.trim().split('\n');

  it('names the URL of refused credentials, an unreachable server and an unknown scheme, never the password', async () => {
    const wrong = `postgres://postgres:not-the-${POSTGRES_PASSWORD}@127.0.0.1:${postgres.port}/postgres`;
    const closed = `postgres://postgres:${POSTGRES_PASSWORD}@127.0.0.1:1/postgres`;
    const results = await Promise.all([run(wrong), run(closed), run('mysql://u:pw-secret@h/db')]);
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)[0]).toMatch(/^petstore-mock: /);
      expect(`${r.stdout}${r.stderr}`).not.toContain(POSTGRES_PASSWORD);
      expect(`${r.stdout}${r.stderr}`).not.toContain('pw-secret');
    }
    expect(oneLine(results[0]!.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `cannot use the store postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${postgres.port}/postgres: 28P01: .*credentials were refused`,
        ),
      ),
    ]);
    expect(oneLine(results[1]!.stderr)).toEqual([
      expect.stringMatching(/cannot use the store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/postgres: ECONNREFUSED/),
    ]);
    expect(oneLine(results[2]!.stderr)[0]).toMatch(
      /--store must be memory, sqlite:FILE or postgres:.*mysql:\/\/u:\*\*\*@h\/db/,
    );
  }, 60_000);

  it('refuses a SQLite file it cannot open, and a schema newer than its own, saying what to do', async () => {
    const missing = await run(`sqlite:${join(dir, 'no-such-folder', 'x.db')}`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^petstore-mock: cannot use the store sqlite:.*no-such-folder.*\n$/);

    const url = await postgres.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE petstore_schema (version integer); INSERT INTO petstore_schema VALUES (99)');
    await client.end();
    const newer = await run(url);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toMatch(/schema is version 99, newer than this mock's 2: upgrade petstore-toolkit/);
    expect(newer.stderr).not.toContain(POSTGRES_PASSWORD);

    const foreign = `sqlite:${join(dir, 'foreign.db')}`;
    const Database = (await import('better-sqlite3')).default;
    new Database(foreign.slice('sqlite:'.length)).exec('CREATE TABLE petstore_pets (x)').close();
    const refused = await run(foreign);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not made by this mock; use an empty database, or drop the petstore_ tables/);
  }, 60_000);
});
