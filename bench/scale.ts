/**
 * The scale section (the mock at 1,000 to 1,000,000 pets: start with seeding,
 * RSS, listing latency).
 */
import { type LoadResult, median, runLoad } from './load.ts';
import { type ChildServer, rssBytes, spawnServer, waitForOutput } from './processes.ts';

/** The mock at one store size. */
export interface ScaleFigures {
  count: number;
  /** Spawn to "listening" (process start plus seeding), ms. */
  listenMs: number;
  rssBytes: number | undefined;
  soldP50Ms: number;
  soldP99Ms: number;
  /** The server's CPU time per listing, µs (median of the rounds): unlike one-connection latency, blind to wakeup delays. */
  soldCpuUs: number;
  allP50Ms: number;
  allP99Ms: number;
  allCpuUs: number;
}

/** Options for {@link measureScale}. */
export interface ScaleOptions {
  apiKey: string;
  counts: number[];
  rounds: number;
  duration: number;
  warmup: number;
  log: (line: string) => void;
}

/** The mock from dist/ (the `petstore-mock` bin) on a free port, quiet; resolves once it prints its URL. */
export async function startMock(
  apiKey: string,
  extra: string[] = [],
): Promise<{ server: ChildServer; url: string; listenMs: number }> {
  const args = ['dist/mock/node/cli.js', '--port', '0', '--api-key', apiKey, '--quiet', ...extra];
  const server = spawnServer({ command: process.execPath, args });
  const { match, ms } = await waitForOutput(server, /at (http:\/\/\S+\/v1)\n/);
  return { server, url: match[1]!, listenMs: ms };
}

const QUERIES = ['status=sold&limit=100', 'limit=100'] as const;

/** Each size started one at a time (listening time, RSS), then listing latency on one connection, sizes interleaved. */
export async function measureScale(o: ScaleOptions): Promise<ScaleFigures[]> {
  const mocks: { count: number; server: ChildServer; url: string; listenMs: number; rss: number | undefined }[] = [];
  try {
    for (const count of o.counts) {
      const mock = await startMock(o.apiKey, ['--count', String(count)]);
      mocks.push({ count, ...mock, rss: rssBytes(mock.server.child.pid!) });
      o.log(`scale ${count}: listening after ${Math.round(mock.listenMs)} ms, RSS ${mocks.at(-1)!.rss} bytes`);
    }
    const runs = new Map<string, LoadResult[]>();
    for (let round = 1; round <= o.rounds; round++) {
      for (const mock of round % 2 === 1 ? mocks : [...mocks].reverse()) {
        for (const query of QUERIES) {
          const result = await runLoad({
            url: `${mock.url}/pets?${query}`,
            headers: { authorization: `Bearer ${o.apiKey}` },
            connections: 1,
            duration: o.duration,
            warmup: o.warmup,
            pid: mock.server.child.pid!,
          });
          if (result.failures > 0) throw new Error(`?${query} failed at ${mock.count} pets`);
          runs.set(`${mock.count}:${query}`, [...(runs.get(`${mock.count}:${query}`) ?? []), result]);
        }
      }
      o.log(`scale round ${round} done`);
    }
    // One-connection latency is tens of µs here, and other tenants only ever add to it: the lowest p50 is the store's own.
    const best = (key: string) => Math.min(...runs.get(key)!.map((r) => r.p50Ms));
    const p99 = (key: string) => median(runs.get(key)!.map((r) => r.p99Ms));
    const cpu = (key: string) => median(runs.get(key)!.map((r) => r.cpuUsPerRequest));
    return mocks.map((m) => ({
      count: m.count,
      listenMs: m.listenMs,
      rssBytes: m.rss,
      soldP50Ms: best(`${m.count}:${QUERIES[0]}`),
      soldP99Ms: p99(`${m.count}:${QUERIES[0]}`),
      soldCpuUs: cpu(`${m.count}:${QUERIES[0]}`),
      allP50Ms: best(`${m.count}:${QUERIES[1]}`),
      allP99Ms: p99(`${m.count}:${QUERIES[1]}`),
      allCpuUs: cpu(`${m.count}:${QUERIES[1]}`),
    }));
  } finally {
    await Promise.all(mocks.map((m) => m.server.stop()));
  }
}
