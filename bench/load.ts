/**
 * One load run with autocannon (as a library): requests per second, exact
 * latency percentiles from every response (autocannon's own histogram keeps
 * whole milliseconds only), and the server's CPU time per request.
 */
import autocannon from 'autocannon';
import { cpuSeconds } from './processes.ts';

/** What to load and how hard. */
export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Requests sent in turn on each connection, over and over (paths absolute), instead of one. */
  requests?: { method: string; path: string; headers: Record<string, string>; body?: string }[];
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of unmeasured load first (JIT, connection setup). */
  warmup?: number;
  /** The server's process, whose CPU time is read before and after the measured run. */
  pid?: number;
}

/** The figures of one run. */
export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /**
   * The server's CPU time (every thread) over the measured run, per request, in µs. Unlike req/s it does not
   * depend on whether the server or the load generator was the bottleneck, nor on time the server spent waiting.
   */
  cpuUsPerRequest: number;
  /** Responses with a status outside 2xx, plus connection errors and timeouts. */
  failures: number;
  /**
   * Each slice's own reading, in the order they ran, where every slice was timed (see `Slice.cpuS`):
   * what {@link perCycle} compares slice by slice.
   */
  cycles?: Reading[];
  /**
   * Where the yardstick's slices ran between every two of this server's: for each of this server's slices, the
   * yardstick's two slices around it taken together (what {@link perCycle} compares each slice with).
   */
  beside?: Reading[];
  /** This is the yardstick whose slices ran between every two of every other server's. */
  interleaved?: boolean;
}

/**
 * One launch's ratio of a server to its yardstick, the higher the better for the server: req/s over the yardstick's,
 * or requests per CPU-second over the yardstick's. With both read slice by slice, the median of the slices' ratios:
 * a burst of other load that falls on a few slices moves a sum over all of them (one launch read 0.77 and 1.14 on two
 * loads for it) but not a median; each slice over the yardstick's two around it where the yardstick ran between,
 * else over the other's slice of the same rank (see {@link perCycle}); without slices, the ratio of the totals.
 */
export function cycleRatio(server: LoadResult, yardstick: LoadResult, of: 'rps' | 'cpu'): number {
  return perCycle(server, yardstick, (s, y) => (of === 'rps' ? s.rps / y.rps : y.cpuUsPerRequest / s.cpuUsPerRequest));
}

/** One slice's reading of a server, or a whole launch's. */
export type Reading = Pick<LoadResult, 'rps' | 'cpuUsPerRequest'>;

/**
 * `compare` of a server and another in one launch, where both were read slice by slice: the median over the
 * server's slices, each compared with the other's two slices around it where the other is the yardstick that ran
 * between every server's; else with the other's slice of the same rank, which ran in another block, seconds apart:
 * where both have the yardstick's slices beside theirs, the other's is first carried to this slice's moment by how
 * the yardstick's changed between them. Without slices, `compare` of their totals.
 */
export function perCycle(server: LoadResult, other: LoadResult, compare: (s: Reading, o: Reading) => number): number {
  const mine = server.cycles;
  const theirs = other.interleaved ? server.beside : carried(other, server.beside);
  if (mine === undefined || theirs === undefined || mine.length !== theirs.length || mine.length === 0)
    return compare(server, other);
  return median(mine.map((c, k) => compare(c, theirs[k]!)));
}

/**
 * `other`'s slices, each scaled by the yardstick's reading `at` its rank over the one beside it; as they ran where
 * neither has the yardstick's beside (plain cycles: the peers), none (the totals, then) where only one has.
 */
function carried(other: LoadResult, at: Reading[] | undefined): Reading[] | undefined {
  const [cycles, beside] = [other.cycles, other.beside];
  if (beside === undefined && at === undefined) return cycles;
  if (cycles === undefined || beside === undefined || at === undefined) return undefined;
  if (beside.length !== cycles.length || at.length !== cycles.length) return undefined;
  return cycles.map((c, k) => ({
    rps: c.rps * (at[k]!.rps / beside[k]!.rps),
    cpuUsPerRequest: c.cpuUsPerRequest * (at[k]!.cpuUsPerRequest / beside[k]!.cpuUsPerRequest),
  }));
}

/** The `q` quantile (0..1) of ascending `sorted` values, by the nearest-rank method. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** The arithmetic mean of `values`, NaN ones left out (NaN when none is left). */
export function mean(values: readonly number[]): number {
  const kept = values.filter((v) => !Number.isNaN(v));
  return kept.length === 0 ? NaN : kept.reduce((sum, v) => sum + v, 0) / kept.length;
}

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The least confidence a median's interval is given: what a target over launches is called with. */
const INTERVAL_CONFIDENCE = 0.9;

/**
 * Where the median of what `values` are draws of lies, from the values alone (no assumption on their spread): the
 * k-th lowest to the k-th highest, k the largest for which the median lies between them at least `confidence` of the
 * time (each value falls below the median with probability 1/2), and that probability. With too few values for
 * `confidence` (fewer than 5 for 0.9) it is the lowest to the highest, with the lower coverage it has.
 */
export function medianInterval(
  values: readonly number[],
  confidence = INTERVAL_CONFIDENCE,
): { interval: [number, number]; coverage: number } {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { interval: [NaN, NaN], coverage: 0 };
  // coverage(k) = 1 - 2 P(Binomial(n, 1/2) <= k - 1): the median is outside when k - 1 or fewer fall on one side.
  let k = 1;
  let tail = 2 ** -n;
  let coverage = Math.max(0, 1 - 2 * tail);
  for (let next = 2, term = 2 ** -n; next <= n / 2; next++) {
    term = (term * (n - next + 2)) / (next - 1);
    const wider = 1 - 2 * (tail + term);
    if (wider < confidence) break;
    tail += term;
    k = next;
    coverage = wider;
  }
  return { interval: [sorted[k - 1]!, sorted[n - k]!], coverage };
}

/** One slice of load: its requests, wall seconds, failures and every response's latency (ms). */
export interface Slice {
  requests: number;
  seconds: number;
  failures: number;
  latencies: Float64Array;
  /** The server's CPU time for this slice, s, from its start to the start of that server's next slice, where timed. */
  cpuS?: number;
}

/**
 * Sends exactly `amount` requests (or, with `duration`, for that many seconds) and returns what came back. With an
 * amount autocannon waits for every answer, so no request is cut off at the end and the server's CPU time over the
 * slice belongs to the requests counted.
 */
export async function loadSlice(
  options: Omit<LoadOptions, 'duration' | 'warmup' | 'pid'>,
  limit: { amount: number } | { duration: number },
): Promise<Slice> {
  let latencies = new Float64Array(1 << 12);
  let count = 0;
  let failures = 0;
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.requests ? { requests: options.requests } : {}),
    connections: options.connections,
    ...limit,
    timeout: 10,
    sampleInt: 100,
  });
  // autocannon notices that the amount is done only when it next samples (every 100 ms here): a slice of 1,000
  // requests and one of 3,000 both took 0.205 s by the time it resolved. A slice lasts until its last answer.
  let lastAnswer = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    lastAnswer = performance.now();
    if (status < 200 || status > 299) failures++;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const started = performance.now();
  const result = await instance;
  return {
    requests: result.requests.total,
    seconds: ((count > 0 ? lastAnswer : performance.now()) - started) / 1000,
    failures: failures + result.errors + result.timeouts,
    latencies: latencies.subarray(0, count),
  };
}

async function once(options: LoadOptions, duration: number, record: boolean): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let failures = 0;
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.requests ? { requests: options.requests } : {}),
    connections: options.connections,
    duration,
    timeout: 10,
    // autocannon checks for the end of a run only when it samples (every second by default): 1.2 s would run 2 s.
    sampleInt: 100,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status > 299) failures++;
    if (!record) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const cpuBefore = options.pid === undefined ? undefined : cpuSeconds(options.pid);
  const result = await instance;
  const cpuAfter = options.pid === undefined ? undefined : cpuSeconds(options.pid);
  const sorted = latencies.subarray(0, count).sort();
  return {
    rps: result.requests.total / result.duration,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    requests: result.requests.total,
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? NaN : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
    failures: failures + result.errors + result.timeouts,
  };
}

/** Runs the warmup, then the measured run. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmup && options.warmup > 0) await once(options, options.warmup, false);
  return once(options, options.duration, true);
}
