/**
 * The journal is bounded by bytes, not only by entries: 400 POSTs of 1 MB
 * to a mock keeping up to 100,000 entries, on a 256 MB heap. Before, each
 * entry kept a slice of its body, which kept the whole megabyte alive: a mock
 * on a 768 MB heap died of "heap out of memory" after about 780 of them, so
 * on this heap after about 250 (400 is the test's margin; fewer requests keep
 * it quick on a loaded machine, the heap keeps it a control). Now it
 * keeps a copy of at most 64 KiB per body within an 8 MiB budget, dropping
 * the oldest, and a full journal is read a page at a time.
 */
import { once } from 'node:events';
import { Pool } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JournalEntry } from '../../mock/core/journal.ts';
import { type ForkedMock, forkMock } from './support/fork-mock.ts';
import type { ChildRequest } from './support/mock-child.ts';

const KEY = 'journal-memory-key';
const MiB = 1024 * 1024;
const POSTS = 400;

let mock: ForkedMock;
let origin: string;
let pool: Pool;

beforeAll(async () => {
  mock = await forkMock({ key: KEY, options: { journalSize: 100_000 }, maxOldSpaceMb: 256 });
  origin = mock.origin;
  pool = new Pool(origin, { connections: 4 });
});
afterAll(async () => {
  await pool?.close();
  await mock?.stop();
});

async function memory(): Promise<NodeJS.MemoryUsage> {
  const reply = once(mock.child, 'message') as Promise<[{ usage: NodeJS.MemoryUsage }]>;
  mock.child.send({ type: 'memory' } satisfies ChildRequest);
  return (await reply)[0].usage;
}

it('400 POSTs of 1 MB on a 256 MB heap: the journal keeps 8 MiB of the newest, the mock stays under 200 MB RSS', async () => {
  const pad = 'p'.repeat(1_000_000 - 60);
  let next = 0;
  const statuses: number[] = [];
  const worker = async () => {
    for (let i = next++; i < POSTS; i = next++) {
      const body = `{"name":"big-${i}","categoryId":1,"pad":"${pad}"}`;
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const response = await pool.request({ method: 'POST', path: '/v1/pets', headers, body });
      await response.body.dump();
      statuses.push(response.statusCode);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  expect(statuses.filter((s) => s === 201)).toHaveLength(POSTS);
  const usage = await memory();
  console.info(
    `journal of ${POSTS} x 1 MB: rss ${(usage.rss / MiB).toFixed(0)} MiB, heap ${(usage.heapUsed / MiB).toFixed(0)} MiB`,
  );
  expect(usage.rss).toBeLessThan(200 * MiB);

  // Paged: each page is the next entries after the last seq seen; the pages hold what the budget kept.
  const first = await pool.request({ method: 'GET', path: '/__control/requests?limit=50' });
  const page = (await first.body.json()) as JournalEntry[];
  const dropped = Number(first.headers['journal-dropped']);
  expect(page).toHaveLength(50);
  expect(page[0]!.seq).toBe(dropped + 1);
  expect(page.every((e) => e.bodyTruncated === true && e.body!.length === 64 * 1024)).toBe(true);
  expect(first.headers.link).toBe(`<?limit=50&since=${page[49]!.seq}>; rel="next"`);
  const kept = POSTS - dropped;
  // 8 MiB of entries with 64 KiB bodies: about 127 of them; the rest were dropped, oldest first.
  expect(kept).toBeGreaterThan(100);
  expect(kept).toBeLessThan(130);
  const all = await pool.request({ method: 'GET', path: '/__control/requests' });
  const entries = (await all.body.json()) as JournalEntry[];
  expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: kept }, (_, i) => dropped + 1 + i));
  expect(mock.stderr()).toBe('');
}, 300_000);
