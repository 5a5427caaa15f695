/**
 * The stores section: the mock from dist/ on each store (memory, SQLite in a
 * temporary file, PostgreSQL in a throwaway cluster started here), loaded
 * route by route, stores interleaved round by round. Throughput and p99 per
 * route; no target for the database stores yet.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../test/support/postgres.ts';
import { type LoadResult, median, runLoad } from './load.ts';
import { notMeasured, num, table } from './markdown.ts';
import type { ChildServer } from './processes.ts';
import { startMock } from './scale.ts';

/** One store's figures, per route: median req/s and p99 (ms) of the rounds, and failures summed. */
export interface StoreFigures {
  store: string;
  routes: Record<string, { rps: number; p99Ms: number; failures: number }>;
}

/** Options for {@link measureStores}. */
export interface StoresOptions {
  apiKey: string;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  log: (line: string) => void;
}

const ROUTES = [
  { name: 'GET /v1/pets?limit=20', method: 'GET', path: '/pets?limit=20' },
  { name: 'GET /v1/pets/7', method: 'GET', path: '/pets/7' },
  { name: 'POST /v1/pets', method: 'POST', path: '/pets' },
] as const;

/** Each store's mock, loaded on each route, stores interleaved; PostgreSQL started and removed here. */
export async function measureStores(o: StoresOptions): Promise<StoreFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-stores-'));
  // Without Debian's postgresql (apt-get install postgresql), the section measures the other two and says so.
  const postgres = await startPostgres().catch((error: Error) => {
    o.log(`stores: no PostgreSQL row: ${error.message}`);
    return undefined;
  });
  const mocks: { store: string; server: ChildServer; url: string }[] = [];
  try {
    const stores: [string, string][] = [
      ['memory', 'memory'],
      ['sqlite', `sqlite:${join(dir, 'bench.db')}`],
    ];
    if (postgres) stores.push(['postgres', await postgres.createDatabase()]);
    for (const [store, url] of stores) {
      // 1,000 pets, beyond one listing: the database reads a page of a real table.
      const mock = await startMock(o.apiKey, [
        '--store',
        url,
        '--count',
        '1000',
        '--control-key',
        'bench-control-key-0123456789',
      ]);
      mocks.push({ store, ...mock });
    }
    const runs = new Map<string, LoadResult[]>();
    for (let round = 1; round <= o.rounds; round++) {
      for (const mock of round % 2 === 1 ? mocks : [...mocks].reverse()) {
        for (const route of ROUTES) {
          const result = await runLoad({
            url: `${mock.url}${route.path}`,
            method: route.method,
            headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
            ...(route.method === 'POST' ? { body: '{"name":"bench","categoryId":1,"status":"available"}' } : {}),
            connections: o.connections,
            duration: o.duration,
            warmup: o.warmup,
            pid: mock.server.child.pid!,
          });
          const key = `${mock.store} ${route.name}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
        }
      }
      o.log(`stores round ${round} done`);
    }
    return mocks.map((m) => ({
      store: m.store,
      routes: Object.fromEntries(
        ROUTES.map((route) => {
          const results = runs.get(`${m.store} ${route.name}`)!;
          const figures = {
            rps: median(results.map((r) => r.rps)),
            p99Ms: median(results.map((r) => r.p99Ms)),
            failures: results.reduce((sum, r) => sum + r.failures, 0),
          };
          return [route.name, figures];
        }),
      ),
    }));
  } finally {
    await Promise.all(mocks.map((m) => m.server.stop()));
    await postgres?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stores table: req/s · p99 ms per route and store. */
export function storesTable(figures: StoreFigures[] | undefined, connections: number, rounds: number): string {
  if (!figures) return notMeasured('Stores');
  const rows = figures.map((f) => [
    f.store,
    ...ROUTES.map((route) => {
      const r = f.routes[route.name];
      return r ? `${num(r.rps)} · ${num(r.p99Ms, 2)}${r.failures > 0 ? ` (${r.failures} failed!)` : ''}` : 'n/a';
    }),
  ]);
  return [
    `Stores (1,000 pets, ${connections} connections): req/s · p99 ms, medians of ${rounds} interleaved rounds; no target for the database stores yet`,
    '',
    table(['store', ...ROUTES.map((r) => r.name)], rows),
  ].join('\n');
}
