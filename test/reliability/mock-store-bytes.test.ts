import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_STORE_BYTES } from '../../mock/core/store.ts';
import { type ForkedMock, forkMock } from './support/fork-mock.ts';

const KEY = 'store-bytes-key';
const MiB = 1024 * 1024;
// Beyond the 256 MiB budget by half again: about 255 kept and the rest refused; without a budget all 400 are kept.
const CREATES = 400;

let mock: ForkedMock;
let origin: string;
let pool: Pool;

beforeAll(async () => {
  mock = await forkMock({ key: KEY, maxOldSpaceMb: 768 });
  origin = mock.origin;
  pool = new Pool(origin, { connections: 4 });
});
afterAll(async () => {
  await pool?.close();
  await mock?.stop();
});

/** The child's peak and current resident set, from /proc (Linux), in bytes. */
function residentSet(): { peak: number; now: number } {
  const status = readFileSync(`/proc/${mock.child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { peak: kib('VmHWM'), now: kib('VmRSS') };
}

it('400 creates with 1 MiB names: each 201 or 507 store_full, as many kept as the budget holds, and the RSS bounded', async () => {
  const name = 'n'.repeat(MiB - 100);
  let next = 0;
  const statuses: number[] = [];
  const codes = new Set<string>();
  const worker = async () => {
    for (let i = next++; i < CREATES; i = next++) {
      const body = `{"name":"${name}","categoryId":${i}}`;
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const response = await pool.request({ method: 'POST', path: '/v1/pets', headers, body });
      if (response.statusCode === 201) await response.body.dump();
      else codes.add(((await response.body.json()) as { code: string }).code);
      statuses[i] = response.statusCode;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const created = statuses.filter((s) => s === 201).length;
  expect(statuses.filter((s) => s !== 201 && s !== 507)).toEqual([]);
  expect([...codes]).toEqual(['store_full']);
  // The budget is what was kept: the 50 seeded pets and as many names as fit.
  expect(created).toBe(Math.floor((DEFAULT_STORE_BYTES - 50 * 110) / (MiB - 100 + 80)));
  const rss = residentSet();
  console.info(
    `store of ${created} x 1 MiB names (budget ${DEFAULT_STORE_BYTES / MiB} MiB): peak RSS ${(rss.peak / MiB).toFixed(0)} MiB, now ${(rss.now / MiB).toFixed(0)} MiB`,
  );
  // The budget, plus what requests in flight and uncollected garbage take (1 MiB bodies, parsed and copied): about
  // 446 to 513 MiB measured with 1,000 creates; the count kept above is what shows the budget holds.
  expect(rss.peak).toBeLessThan(DEFAULT_STORE_BYTES + 384 * MiB);
  // Still answering, and a reset makes room again.
  const json = { 'content-type': 'application/json' };
  const reset = await pool.request({ method: 'POST', path: '/__control/reset', headers: json });
  expect(reset.statusCode).toBe(200);
  await reset.body.dump();
  const again = await pool.request({
    method: 'POST',
    path: '/v1/pets',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: `{"name":"${name}","categoryId":1}`,
  });
  expect(again.statusCode).toBe(201);
  await again.body.dump();
}, 300_000);
