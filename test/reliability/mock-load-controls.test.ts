/**
 * Load with the journal and scenarios on: 64 connections against the mock in
 * its own process, with two counted scenarios. Each scenario answers exactly
 * `times` requests, no request is lost (every one is answered, and the
 * journal's sequence numbers count them all), and the heap stays flat while
 * the bounded journal turns over tens of thousands of requests.
 */
import { once } from 'node:events';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../mock/core/journal.ts';
import { type ForkedMock, forkMock } from './support/fork-mock.ts';
import type { ChildRequest } from './support/mock-child.ts';

const CONNECTIONS = 64;
const KEY = 'load-test-key';
const MiB = 1024 * 1024;
const JOURNAL = 1_000;

interface Memory {
  usage: NodeJS.MemoryUsage;
  pets: number;
}

let mock: ForkedMock;
let origin: string;
let pool: Pool;

beforeAll(async () => {
  mock = await forkMock({ key: KEY });
  origin = mock.origin;
  pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
});
afterAll(async () => {
  await pool?.close();
  await mock?.stop();
});

async function memory(): Promise<Memory> {
  const reply = once(mock.child, 'message') as Promise<[Memory]>;
  mock.child.send({ type: 'memory' } satisfies ChildRequest);
  return (await reply)[0];
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await pool.request({
    method,
    path: `/__control/${path}`,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return text === '' ? undefined : JSON.parse(text);
}

/** Sends `total` requests over every connection at once; counts statuses, and any request with no answer. */
async function load(total: number, pick: (i: number) => { method: string; path: string; body?: string }) {
  const statuses = new Map<number, number>();
  const lost: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const { method, path, body } = pick(i);
      try {
        const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
        const response = await pool.request({ method: method as 'GET', path, headers, body });
        await response.body.dump();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      } catch (error) {
        lost.push(`${method} ${path}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { statuses: Object.fromEntries(statuses), lost };
}

/** The newest sequence number in the journal (sequence numbers count every API request since the mock started). */
async function lastSeq(): Promise<number> {
  return ((await control('GET', 'requests')) as JournalEntry[]).at(-1)!.seq;
}

describe('mock under load with the journal and scenarios on', () => {
  it('counts `times` exactly under concurrency and loses no request', async () => {
    await control('POST', 'reset');
    await load(1, () => ({ method: 'GET', path: '/v1/pets' }));
    const base = await lastSeq();
    await control('POST', 'scenarios', { method: 'GET', path: '/v1/pets/{petId}', times: 2_500, status: 503 });
    await control('POST', 'scenarios', { method: 'POST', path: '/v1/pets', times: 777, status: 429 });
    const total = 12_000;
    const { statuses, lost } = await load(total, (i) =>
      i % 3 === 0
        ? { method: 'POST', path: '/v1/pets', body: `{"name":"load-${i}","categoryId":1}` }
        : { method: 'GET', path: `/v1/pets/${1 + (i % 50)}` },
    );
    expect(lost).toEqual([]);
    const posts = total / 3;
    expect(statuses).toEqual({ 200: total - posts - 2_500, 201: posts - 777, 429: 777, 503: 2_500 });
    expect(await control('GET', 'scenarios')).toEqual([]);
    const pets = (await control('GET', 'pets')) as unknown[];
    expect(pets.length).toBe(50 + posts - 777);
    // Every request is in the journal's count: the newest sequence number is the number of API requests.
    const journal = (await control('GET', 'requests')) as JournalEntry[];
    expect(journal.length).toBe(JOURNAL);
    expect(journal.map((e) => e.seq)).toEqual(
      Array.from({ length: JOURNAL }, (_, i) => base + total - JOURNAL + 1 + i),
    );
  }, 120_000);

  it('keeps the heap flat while the bounded journal turns over', async () => {
    await control('POST', 'reset');
    const read = (i: number) => ({ method: 'GET', path: `/v1/pets?limit=${1 + (i % 20)}&n=${i}` });
    await load(5_000, read);
    const warm = await memory();
    const base = await lastSeq();
    const { lost } = await load(25_000, read);
    const after = await memory();
    expect(lost).toEqual([]);
    const journal = (await control('GET', 'requests')) as JournalEntry[];
    expect([journal.length, journal.at(-1)!.seq]).toEqual([JOURNAL, base + 25_000]);
    const heap = (m: Memory) => (m.usage.heapUsed / MiB).toFixed(1);
    console.info(`journal load: heapUsed ${heap(warm)} MiB with the journal full, ${heap(after)} MiB after 25000 more`);
    // An unbounded journal would hold 25000 more entries (tens of MiB); the bounded one holds the same 1000.
    expect(after.usage.heapUsed).toBeLessThan(warm.usage.heapUsed + 8 * MiB);
    expect(mock.stderr()).toBe('');
  }, 120_000);
});
