import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getValidator, type Pet } from '../../spec/index.ts';
import { type ForkedMock, forkMock } from './support/fork-mock.ts';
import type { ChildRequest } from './support/mock-child.ts';

/** Requests sent under load (at least; the last round of three may overshoot). */
const LOAD_REQUESTS = 50_000;
const CONNECTIONS = 64;
const KEY = 'load-test-key';
const MiB = 1024 * 1024;

interface Memory {
  usage: NodeJS.MemoryUsage;
  pets: number;
}

let mock: ForkedMock;
let origin: string;

beforeAll(async () => {
  mock = await forkMock({ key: KEY });
  origin = mock.origin;
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});
afterAll(async () => {
  await mock?.stop();
});

async function ask<T>(message: ChildRequest): Promise<T> {
  const reply = new Promise<T>((resolve) => {
    const listener = (m: { type: string }) => {
      if (m.type !== message.type) return;
      mock.child.off('message', listener);
      resolve(m as T);
    };
    mock.child.on('message', listener);
  });
  mock.child.send(message);
  return reply;
}

describe('mock under load', () => {
  it(`serves ${LOAD_REQUESTS} requests over ${CONNECTIONS} connections with no error and no lost or duplicated pet, and frees memory on reset`, async () => {
    const before = await ask<Memory>({ type: 'memory' });
    const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
    const auth = { authorization: `Bearer ${KEY}` };
    const created = new Map<number, string>();
    const failures: string[] = [];
    let sent = 0;
    let duplicates = 0;
    const validatePet = getValidator('Pet', { closed: true });

    async function call(
      method: 'GET' | 'POST',
      path: string,
      body?: string,
    ): Promise<{ status: number; text: string }> {
      sent++;
      const response = await pool.request({
        method,
        path,
        headers: body ? { ...auth, 'content-type': 'application/json' } : auth,
        body,
      });
      return { status: response.statusCode, text: await response.body.text() };
    }

    async function worker(w: number): Promise<void> {
      for (let round = 0; sent < LOAD_REQUESTS; round++) {
        try {
          const name = `load-${w}-${round}`;
          const create = await call(
            'POST',
            '/v1/pets',
            JSON.stringify({ name, categoryId: w, status: ['available', 'pending', 'sold'][round % 3] }),
          );
          if (create.status !== 201) throw new Error(`create answered ${create.status}: ${create.text}`);
          const pet = JSON.parse(create.text) as Pet;
          if (!validatePet(pet) || pet.name !== name) throw new Error(`create returned ${create.text}`);
          if (created.has(pet.id)) duplicates++;
          created.set(pet.id, create.text);
          const read = await call('GET', `/v1/pets/${pet.id}`);
          if (read.status !== 200 || read.text !== create.text)
            throw new Error(`read back ${read.status} ${read.text}, created ${create.text}`);
          const list = await call(
            'GET',
            `/v1/pets?limit=${1 + (round % 100)}&status=${['available', 'pending', 'sold'][w % 3]}`,
          );
          if (list.status !== 200 || !Array.isArray(JSON.parse(list.text)))
            throw new Error(`list answered ${list.status}`);
        } catch (error) {
          failures.push(`worker ${w}: ${(error as Error).message}`);
          if (failures.length > 20) return;
        }
      }
    }

    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
    const seconds = (performance.now() - started) / 1000;
    await pool.close();

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(LOAD_REQUESTS);
    expect(duplicates).toBe(0);
    // Every pet created is held, exactly as it was returned, and nothing else was added.
    const all = await fetch(`${origin}/__control/pets`).then((r) => r.json() as Promise<Pet[]>);
    expect(all.length).toBe(50 + created.size);
    const held = new Map(all.map((p) => [p.id, JSON.stringify(p)]));
    let missing = 0;
    for (const [id, text] of created) if (held.get(id) !== text) missing++;
    expect(missing).toBe(0);

    const loaded = await ask<Memory>({ type: 'memory' });
    await ask({ type: 'reset' });
    const after = await ask<Memory>({ type: 'memory' });
    expect(after.pets).toBe(50);
    const heap = (m: Memory) => (m.usage.heapUsed / MiB).toFixed(1);
    const rss = (m: Memory) => (m.usage.rss / MiB).toFixed(1);
    console.info(
      `load: ${sent} requests (${created.size} creates) over ${CONNECTIONS} connections in ${seconds.toFixed(1)} s = ${Math.round(sent / seconds)} req/s; ` +
        `mock heapUsed ${heap(before)} MiB at start, ${heap(loaded)} MiB loaded, ${heap(after)} MiB after reset; rss ${rss(before)} / ${rss(loaded)} / ${rss(after)} MiB`,
    );
    // Generous: the heap after a reset is within 8 MiB (or a quarter) of where it started, and well below the loaded heap.
    expect(after.usage.heapUsed).toBeLessThan(before.usage.heapUsed + Math.max(8 * MiB, before.usage.heapUsed / 4));
    expect(after.usage.heapUsed).toBeLessThan(loaded.usage.heapUsed);
    expect(mock.stderr()).toBe('');
  }, 90_000);
});
