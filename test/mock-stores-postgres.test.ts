/**
 * Several mocks on one PostgreSQL store (issue 40): the conformance suite
 * passes against two instances with requests alternating between them
 * (create on one, fetch and list on the other); 10,000 concurrent creates
 * across two instances give 10,000 distinct ids, none lost; and a database
 * that stops in the middle of a load gets 503s with Retry-After, no hang, no
 * crash, then service again once it is back, the password in no output.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { CONTROL_KEY, POSTGRES_PASSWORD, type Postgres, startPostgres } from './support/postgres.ts';
import { spawnProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

const KEY = 'petstore-dev-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const CONTROL = { authorization: `Bearer ${CONTROL_KEY}` };
let postgres: Postgres;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.close());
afterEach(stopAllProcesses);

/** A proxy sending each request to the next of `origins` in turn; `sent` counts what each received. */
async function roundRobin(origins: string[]): Promise<{ server: Server; url: string; sent: number[] }> {
  const pools = origins.map((origin) => new Pool(origin, { connections: 8 }));
  const sent = origins.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const at = next++ % pools.length;
      sent[at]!++;
      try {
        const answer = await pools[at]!.request({
          method: req.method as 'GET',
          path: req.url!,
          headers: req.headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        });
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, answer.headers as Record<string, string>);
        res.end(body);
      } catch {
        res.destroy();
      }
    });
  });
  server.on('close', () => void Promise.all(pools.map((p) => p.close())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent };
}

async function twoInstances(): Promise<[MockServer, MockServer]> {
  const store = await postgres.createDatabase();
  const first = await startMockServer({ store, controlKey: CONTROL_KEY });
  return [first, await startMockServer({ store, controlKey: CONTROL_KEY })];
}

it('passes the conformance suite against two instances, requests alternating between them', async () => {
  const mocks = await twoInstances();
  const proxy = await roundRobin(mocks.map((m) => m.origin));
  try {
    // A create on one, then a fetch on the other: the same pet.
    const created = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"shared","categoryId":4}',
    });
    const pet = (await created.json()) as { id: number };
    const fetched = await fetch(`${proxy.url}/v1/pets/${pet.id}`, { headers: AUTH });
    expect(await fetched.json()).toEqual(pet);

    const report = await runConformance({ baseUrl: `${proxy.url}/v1`, apiKey: KEY, strict: true });
    const notPassed = report.cases.filter((c) => c.outcome !== 'passed');
    expect(notPassed.map((c) => `${c.id}: ${c.reason ?? ''}`)).toEqual([]);
    expect(Math.min(...proxy.sent)).toBeGreaterThan(20);
    expect(Math.abs(proxy.sent[0]! - proxy.sent[1]!)).toBeLessThanOrEqual(1);
  } finally {
    proxy.server.close();
    await Promise.all(mocks.map((m) => m.close()));
  }
}, 120_000);

it('the control: two memory mocks behind the same proxy, each with its own pets, fail it', async () => {
  const mocks = [await startMockServer({}), await startMockServer({})];
  const proxy = await roundRobin(mocks.map((m) => m.origin));
  try {
    const report = await runConformance({ baseUrl: `${proxy.url}/v1`, apiKey: KEY });
    expect(report.cases.filter((c) => c.outcome === 'failed').length).toBeGreaterThan(0);
  } finally {
    proxy.server.close();
    await Promise.all(mocks.map((m) => m.close()));
  }
}, 120_000);

it("counts a key's rate limit across instances: 5 per second through two mocks is 5, not 10", async () => {
  const store = await postgres.createDatabase();
  const onStore = [
    await startMockServer({ store, rateLimit: 5, controlKey: CONTROL_KEY }),
    await startMockServer({ store, rateLimit: 5, controlKey: CONTROL_KEY }),
  ];
  const inMemory = [await startMockServer({ rateLimit: 5 }), await startMockServer({ rateLimit: 5 })];
  const burst = async (mocks: MockServer[]) => {
    // Just after a second starts, so the 12 requests fall in one window.
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => fetch(`${mocks[i % 2]!.url}/pets?limit=1`, { headers: AUTH })),
    );
    return answers.map((a) => a.status).filter((s) => s === 200).length;
  };
  try {
    expect(await burst(onStore)).toBe(5);
    // The control: each memory mock counts alone.
    expect(await burst(inMemory)).toBe(10);
  } finally {
    await Promise.all([...onStore, ...inMemory].map((m) => m.close()));
  }
}, 60_000);

it('10,000 concurrent creates across two instances: 10,000 distinct ids, every one held', async () => {
  const mocks = await twoInstances();
  const pools = mocks.map((m) => new Pool(m.origin, { connections: 32 }));
  try {
    const ids: number[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < 10_000; i = next++) {
        const answer = await pools[i % 2]!.request({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...AUTH, 'content-type': 'application/json' },
          body: `{"name":"concurrent ${i}","categoryId":${i}}`,
        });
        expect(answer.statusCode).toBe(201);
        ids.push(((await answer.body.json()) as { id: number }).id);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    expect(new Set(ids).size).toBe(10_000);
    const held = (await (await fetch(`${mocks[1].origin}/__control/pets`, { headers: CONTROL })).json()) as {
      id: number;
      name: string;
    }[];
    expect(held).toHaveLength(10_050);
    const heldIds = new Set(held.map((p) => p.id));
    expect(ids.every((id) => heldIds.has(id))).toBe(true);
    expect(Math.max(...ids)).toBe(10_050);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await Promise.all(mocks.map((m) => m.close()));
  }
}, 180_000);

it('PostgreSQL stopped in the middle of a load: 503 with Retry-After, no hang, no crash; served again once back', async () => {
  const store = await postgres.createDatabase();
  const mock = spawnProcess([...tsxEntry('mock/node/cli.ts'), '--port', '0', '--store', store], {
    env: { ...process.env, PETSTORE_CONTROL_KEY: CONTROL_KEY },
  });
  const [, url] = await mock.waitForOutput(/ at (\S+)\n/, 30_000);
  const pool = new Pool(new URL(url!).origin, { connections: 8 });
  const seen: { status: number; retryAfter?: string; ms: number; body: string }[] = [];
  let running = true;
  const load = async (worker: number) => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      const create = (i + worker) % 3 === 0;
      const answer = await pool.request({
        method: create ? 'POST' : 'GET',
        path: create ? '/v1/pets' : '/v1/pets?limit=5',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: create ? '{"name":"load","categoryId":1}' : null,
      });
      const body = await answer.body.text();
      seen.push({
        status: answer.statusCode,
        retryAfter: answer.headers['retry-after'] as string | undefined,
        ms: performance.now() - started,
        body,
      });
    }
  };
  try {
    const workers = Promise.all(Array.from({ length: 8 }, (_, w) => load(w)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.stop();
    const stoppedAt = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await postgres.start();
    const restartedAt = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    running = false;
    await workers;

    expect(seen.filter((s) => ![200, 201, 503].includes(s.status))).toEqual([]);
    const unavailable = seen.slice(stoppedAt, restartedAt).filter((s) => s.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const s of seen.filter((x) => x.status === 503)) {
      expect(s.retryAfter).toBe('1');
      expect(JSON.parse(s.body)).toMatchObject({ code: 'service_unavailable', status: 503 });
    }
    // Never a hang: every answer within the pool's connection timeout and then some.
    expect(Math.max(...seen.map((s) => s.ms))).toBeLessThan(8_000);
    // Served again: the last answers are successes.
    expect(
      seen
        .slice(-20)
        .map((s) => s.status)
        .filter((s) => s === 503),
    ).toEqual([]);
    expect(mock.child.exitCode).toBeNull();
    const journal = await (
      await fetch(`${new URL(url!).origin}/__control/requests?limit=1000`, { headers: CONTROL })
    ).text();
    for (const text of [journal, mock.stdout(), mock.stderr(), ...seen.map((s) => s.body)])
      expect(text).not.toContain(POSTGRES_PASSWORD);
    expect(mock.stdout()).toContain('postgres://postgres:***@');
  } finally {
    running = false;
    await pool.close();
  }
}, 90_000);

it('a mock on a PostgreSQL store, which other mocks share, refuses to start without a control key', async () => {
  const store = await postgres.createDatabase();
  await expect(startMockServer({ store })).rejects.toMatchObject({
    option: 'controlKey',
    message: expect.stringContaining('on a PostgreSQL store, which other mocks share'),
  });
});
