/**
 * The throughput section. The machine's speed drifts by a factor of two within a run, so servers loaded one after
 * another cannot be compared to 5 %. Instead the servers of one store size run at the same time, all pinned to one core
 * (the load generator, this process, on the others), and take turns in short slices, each a fixed number of requests
 * sized to last a fraction of a second: a block of slices per server, the yardstick's slice between every two of them,
 * so that a drift hits a slice and the yardstick's on either side of it alike, and both run every other slice (a server
 * that waits longer between its slices than its yardstick reads costlier: see {@link sliceOrder}). Each server's CPU
 * time comes from /proc around each of its slices. Summed over a route's slices, one launch read up to 0.3 off on a
 * load (a burst of other load on some of that route's slices: the same launch read near 1.00 on its other loads), so a
 * launch's ratio is the median of its slices' ratios, and every figure a median over launches of fresh processes,
 * started in the opposite order every other launch; the control (the yardstick again) shows what the method reads when
 * nothing differs. Loading a server and its yardstick at the same time instead (a pair each, one autocannon each) was
 * tried: a server's CPU per request then depends on its partner's (how many requests each wake-up finds), and the mock
 * read 0.68 on the list where in turns it read 0.87.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { LISTENING, serverArgs, writeAnswerFiles } from './answers.ts';
import type { InstalledProject } from './install.ts';
import { BEFORE, type BenchServer, benchServers, LADDER_LOADS, type Layer, mocksBefore } from './layers.ts';
import {
  cycleRatio,
  type LoadResult,
  loadSlice,
  median,
  medianInterval,
  perCycle,
  quantile,
  type Reading,
  type Slice,
} from './load.ts';
import {
  type ChildServer,
  cpuSeconds,
  cpuShare,
  cpuTicks,
  spawnServer,
  threadCpuSeconds,
  waitForOutput,
} from './processes.ts';
import type { LayerFigures, LoadName, ServerFigures, ThroughputFigures } from './report.ts';
import { type LoadName as Load, MIXED_ROUTES, ROUTE_REQUESTS, resetMock } from './servers/index.ts';

/** Options for {@link measureThroughput}. */
export interface ThroughputOptions {
  apiKey: string;
  layers: readonly Layer[];
  /** Launches of fresh processes; the start order is reversed every other one. */
  launches: number;
  /** Seconds of load each server gets per route and launch, in slices of about `slice` s. */
  duration: number;
  /** About how long one server's slice lasts, s: short enough that the machine's drift between two slices is small. */
  slice: number;
  /** Seconds of unmeasured load per server before each route's slices (it also sizes the slices). */
  warmup: number;
  connections: number;
  /** Where the servers run from: the installed package and the bench's servers as JavaScript. */
  project: InstalledProject;
  log: (line: string) => void;
  /**
   * Size each server's slices from its own warm-up rate instead of the group's median: for servers whose rates
   * differ tenfold (the peers), one amount would make a slow server's slice last seconds.
   */
  ownSlices?: boolean;
  /** Requests of the mixed load each fresh process gets before anything is measured (default 20,000). */
  launchWarmup?: number;
  /** Slices at the start of each server's block that are not read (default {@link WARM_UP_SLICES}). */
  warmUpSlices?: number;
  /** A built tree whose mock is loaded too, at each size, beside this one's (`--before DIR`). */
  before?: string;
  /**
   * The key of the server every other one's ratios are taken over: every other server then gets a block of slices,
   * the yardstick's between every two (yardstick, A, yardstick, A, ..., yardstick, B, ...), and each of their slices
   * is compared with the two yardstick slices around it.
   */
  yardstick?: string;
}

/** What a launch needs of a server: its figures' key, whether it has the mock's reset, what it is loaded with. */
export type LoadedServer = Pick<BenchServer, 'key' | 'resettable' | 'loads'>;

/** The fewest requests in a slice, so that connecting costs little beside them. */
const MIN_SLICE_REQUESTS = 200;

/**
 * Requests of the mixed load (every route) each fresh process gets before anything is measured: counted, not timed,
 * so that every server reaches the same JIT state whatever the machine's speed (a fresh process's first requests run
 * unoptimised code at ten times the cost).
 */
const LAUNCH_WARMUP_REQUESTS = 20_000;

/** A started server of a launch. */
export interface Running {
  server: LoadedServer;
  child: ChildServer;
  /** Base URL, ending in /v1. */
  base: string;
}

/** The loads of the section, in order. */
export const LOADS: Load[] = ['list', 'sold', 'get', 'create', 'mixed'];

/**
 * Node's flags for every server of the section: V8's young generation held at the size it grows to under sustained
 * load (semi-spaces of 16 MB, V8's default maximum on 64-bit Node 20), from the start. Without it a server shrinks
 * its young generation whenever it waits its turn (the first scavenge after a wait of a few seconds), and under load
 * grows it back only over seconds (the minimal server at 50 pets under continuous load, `--trace-gc`, 2026-11-30:
 * 9.2 MB committed and 22 scavenges per 100 ms in its first 1.4 s, 13.2 MB and 12 up to 8 s, 21.2 MB and 6 up to
 * 30 s, then 37.2 MB and 3, as with this flag from the first request): the yardstick, loaded in every block, ran that
 * far ahead of a server whose block came after a long wait, and the control read 0.96 in the launches where its block
 * came last and 1.02 where it came first (the list at 50 pets in the run of 16:55, six launches each). Every server
 * gets the same flag, so each runs as it would after taking traffic for a while, whatever its place in the order.
 * (The instructions section fixes 8 MiB, for a reason of its own: under valgrind V8 sizes it from a slowed clock.)
 *
 * And V8's memory reducer off: it shrinks a process's heap some seconds after the process goes idle
 * (`--gc-memory-reducer-start-delay-ms`, 8 s), which a server waiting for the others' blocks does and the yardstick,
 * loaded in every block, never does. With it on, the mock's mixed load at 50 pets read 0.68 to 0.78 in 7 of the 36
 * launches of three full runs, all where the group started in reverse (the longest waits); the same mock code run
 * twice in one `--before` run, only one with this flag, four launches (2026-12-01, `--only throughput --before`):
 * 0.69 to 0.80 without, 0.86 to 0.92 with, every other load 0.99 to 1.04 between them.
 */
export const NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16', '--no-memory-reducer'];

/**
 * This process's node with `flags` ({@link NODE_FLAGS} unless told), pinned to `cpu` when one is given: the one
 * prefix what runs is built from (the peers pass no flags), and through {@link shownCommand} what is shown.
 */
export function nodeOn(cpu: string | undefined, flags: readonly string[] = NODE_FLAGS): string[] {
  return [...(cpu === undefined ? [] : ['taskset', '-c', cpu]), process.execPath, ...flags];
}

/** A command as the tables show it: the argv spawned, this process's node named `node`. */
export function shownCommand(argv: readonly string[]): string {
  return argv.map((a) => (a === process.execPath ? 'node' : a)).join(' ');
}

/** How each server is started in the installed project, as shown in the tables (K: the key): what {@link start} spawns. */
export function commandOf(server: BenchServer, project: InstalledProject, cpu?: string): string {
  const argv = argvOf(server, project, 'K', '', cpu);
  // What picks a bench server is its variant: the key and the answers file it is given are the run's own.
  return shownCommand(server.start.kind === 'bench' ? argv.slice(0, argv.indexOf('--api-key')) : argv);
}

/** Servers live as long as the section needs them; this only bounds a bench that hangs. */
export const SERVER_LIFETIME_MS = 30 * 60_000;

/**
 * The CPUs: the servers share the last one this process may use, the load generator gets the others (none pinned on
 * one CPU), as taskset lists.
 */
export function cpuPlan(cpus: readonly number[] = CPUS): { servers: string; generator: string } | undefined {
  if (cpus.length < 2) return undefined;
  return { servers: String(cpus.at(-1)), generator: cpus.slice(0, -1).join(',') };
}

/** The CPU numbers of a list as taskset and `/proc/PID/status` write it (`0-3,8,10-11`); empty when it is not one. */
export function cpuNumbers(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const range = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(part);
    if (!range) return [];
    const [first, last] = [Number(range[1]), Number(range[2] ?? range[1])];
    if (last < first) return [];
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs this process may use, from its affinity (Linux), else the first `availableParallelism()`. */
function allowedCpus(): { list: string; cpus: number[] } {
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const cpus = list === undefined ? [] : cpuNumbers(list);
    if (cpus.length > 0) return { list: list!, cpus };
  } catch {
    // No /proc: not Linux, where taskset is missing too.
  }
  const n = availableParallelism();
  return { list: `0-${n - 1}`, cpus: Array.from({ length: n }, (_, i) => i) };
}

/**
 * The CPUs this process may use, read once, before any section pins it: read after a pinning they are the one it
 * was pinned to, and a section that unpinned with them stayed on one CPU (every later section's servers then shared
 * it with the load generator). Their numbers as the kernel gives them: a container may be allowed CPUs 2 and 5.
 */
const ALLOWED = allowedCpus();
const CPUS = ALLOWED.cpus;

/** Every CPU this process could use before it was pinned, as a taskset list: what a section unpins to. */
export const ALL_CPUS = ALLOWED.list;

/** Pins every thread of this process to `cpus` (a taskset list); returns false when taskset is missing. */
export function pinSelf(cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What {@link start} spawns for `server`, the command first; {@link commandOf} shows it. */
export function argvOf(
  server: BenchServer,
  project: InstalledProject,
  apiKey: string,
  answersFile: string,
  cpu: string | undefined,
): string[] {
  return [...nodeOn(cpu), ...serverArgs(server, project, apiKey, answersFile)];
}

async function start(
  server: BenchServer,
  o: ThroughputOptions,
  answersFile: string,
  cpu: string | undefined,
): Promise<Running> {
  const s = server.start;
  const [command, ...args] = argvOf(server, o.project, o.apiKey, answersFile, cpu);
  const child = spawnServer({
    command: command!,
    args,
    cwd: o.project.dir,
    stderr: s.kind === 'mock' ? s.stderr : 'pipe',
    maxLifetimeMs: SERVER_LIFETIME_MS,
  });
  const { match } = await waitForOutput(child, LISTENING);
  return { server, child, base: match[1]! };
}

/** Throws when a server has exited: its figures would be connection errors, not its own. */
function assertAlive({ server, child }: Running): void {
  if (child.child.exitCode !== null || child.child.signalCode !== null)
    throw new Error(
      `the ${server.key} server exited (${child.child.exitCode ?? child.child.signalCode}): ${String(child)}`,
    );
}

/** The requests of the mixed load, with absolute paths under `base`. */
function mixedRequests(base: string, apiKey: string): NonNullable<Parameters<typeof loadSlice>[0]['requests']> {
  // A base at the host's root (Prism serves the document's paths there) has the pathname `/`.
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  return MIXED_ROUTES.map((route) => {
    const r = ROUTE_REQUESTS[route];
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if ('body' in r) headers['content-type'] = 'application/json';
    return { method: r.method, path: `${prefix}${r.path}`, headers, ...('body' in r ? { body: r.body } : {}) };
  });
}

/** What autocannon sends to `running` for `route`. */
export function loadOf(
  running: Running,
  route: Load,
  o: Pick<ThroughputOptions, 'apiKey' | 'connections'>,
): Parameters<typeof loadSlice>[0] {
  const r = ROUTE_REQUESTS[route === 'mixed' ? 'list' : route];
  const headers: Record<string, string> = { authorization: `Bearer ${o.apiKey}` };
  if ('body' in r) headers['content-type'] = 'application/json';
  return {
    url: `${running.base}${r.path}`,
    method: r.method,
    headers,
    body: 'body' in r ? r.body : undefined,
    ...(route === 'mixed' ? { requests: mixedRequests(running.base, o.apiKey) } : {}),
    connections: o.connections,
  };
}

/** A server's CPU time so far: its threads' exact run time where the kernel keeps it, else the ticks of /proc/PID/stat. */
function cpuOf(r: Running): number | undefined {
  const pid = r.child.child.pid!;
  return threadCpuSeconds(pid) ?? cpuSeconds(pid);
}

/** A server's exact CPU time so far (its threads' run time), or undefined where the kernel does not keep it. */
function exactCpuOf(r: Running): number | undefined {
  return threadCpuSeconds(r.child.child.pid!);
}

/** The reading of timed slices taken together, or undefined where one has no time. */
function readingOf(slices: Slice[]): Reading | undefined {
  if (slices.some((s) => s.cpuS === undefined)) return undefined;
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  return {
    rps: requests / slices.reduce((sum, s) => sum + s.seconds, 0),
    cpuUsPerRequest: (slices.reduce((sum, s) => sum + s.cpuS!, 0) * 1e6) / requests,
  };
}

/** One server's slices of a route in one launch, as one result (with each slice's own reading where it has one). */
function resultOf(slices: Slice[], cpuS: number | undefined): LoadResult {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const latencies = new Float64Array(slices.reduce((sum, s) => sum + s.latencies.length, 0));
  let at = 0;
  for (const s of slices) {
    latencies.set(s.latencies, at);
    at += s.latencies.length;
  }
  latencies.sort();
  return {
    rps: requests / slices.reduce((sum, s) => sum + s.seconds, 0),
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    requests,
    cpuUsPerRequest: cpuS === undefined ? NaN : (cpuS * 1e6) / requests,
    failures: slices.reduce((sum, s) => sum + s.failures, 0),
    ...(slices.every((s) => s.cpuS !== undefined) ? { cycles: slices.map((s) => readingOf([s])!) } : {}),
  };
}

/** Whether every launch of every server was read slice by slice: its ratios are then medians of cycles. */
export function everyCycle(runs: Map<string, LoadResult[]>): boolean {
  return [...runs.values()].every((results) => results.every((r) => r.cycles !== undefined));
}

/** How long the last slice of a route may take to finish its work (its connections closing) before the last reading. */
const SETTLE_MS = 20;

/**
 * `slices` with each one's CPU time, from `marks`: the server's exact CPU time at the start of each slice, then where
 * its last ends (see {@link closings}). A slice's time runs to the start of that server's next slice (a server
 * waiting for its turn uses none), so what a slice leaves behind (its 32 connections closing, a collection) counts
 * with it. None has a time unless every mark is exact (ticks of 10 ms are too coarse).
 */
export function timedSlices(slices: Slice[], marks: (number | undefined)[]): Slice[] {
  if (marks.length !== slices.length + 1 || marks.some((m) => m === undefined)) return slices;
  return slices.map((s, k) => ({ ...s, cpuS: marks[k + 1]! - marks[k]! }));
}

/**
 * Loads `route` on every server of `group` in turn: a warm-up each (which sizes its slices), then a block of slices
 * per server, the yardstick's between every two (see {@link sliceOrder}), each server's CPU time read from
 * /proc around all of it and at the start of every slice (a server waiting for its turn uses none). Resets the
 * servers that keep what POST creates after the reading, and on a load that writes, the yardstick and the block's
 * server before each block.
 */
async function loadRoute(
  group: Running[],
  route: Load,
  o: Omit<ThroughputOptions, 'layers'>,
): Promise<Map<string, LoadResult>> {
  const rates: number[] = [];
  for (const r of group) {
    assertAlive(r);
    const warm = await loadSlice(loadOf(r, route, o), { duration: o.warmup });
    rates.push(warm.requests / warm.seconds);
  }
  // One amount for the whole group, from its median rate: every server then opens its 32 connections per the same
  // number of requests, so connecting weighs on each alike.
  const amountOf = (rate: number) => Math.max(MIN_SLICE_REQUESTS, Math.round(rate * o.slice));
  const amounts = new Map(group.map((r, i) => [r, amountOf(o.ownSlices ? rates[i]! : median(rates))]));
  const cycles = Math.max(1, Math.round(o.duration / o.slice));
  const slices = new Map<Running, Slice[]>(group.map((r) => [r, []]));
  const marks = new Map<Running, (number | undefined)[]>(group.map((r) => [r, []]));
  const before = new Map(group.map((r) => [r, cpuOf(r)]));
  const { order, beside, warmUps, blockStarts } = sliceOrder(group, cycles, o.yardstick, o.warmUpSlices);
  const yardstick = group.find((r) => r.server.key === o.yardstick);
  // On a load that writes, the yardstick, which runs in every block, would carry every block's new pets, and its
  // answers cost more as its store grows (its sold listing reads every pet): it and the block's server start each
  // block from their first state, so that a slice and the yardstick's beside it hold stores of one size.
  const resets = route === 'create' || route === 'mixed' ? blockStarts : new Map<number, Running>();
  const closing = closings(order);
  const closed = new Set<Running>();
  const close = (r: Running) => {
    if (closed.has(r)) return;
    closed.add(r);
    marks.get(r)!.push(exactCpuOf(r));
  };
  for (const [i, r] of order.entries()) {
    const done = closing.get(i);
    if (done !== undefined) close(done);
    const starting = resets.get(i);
    // Before the server's first mark; the yardstick's reset (one request) counts in its slice before the block.
    if (starting !== undefined)
      await Promise.all([starting, yardstick].flatMap((s) => (s?.server.resettable ? [resetMock(s.base)] : [])));
    marks.get(r)!.push(exactCpuOf(r));
    slices.get(r)!.push(await loadSlice(loadOf(r, route, o), { amount: amounts.get(r)! }));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const timed = new Map<Running, Slice[]>();
  // A block's warm-up slices, where they were timed (untimed, no slice is compared and every one stays in the totals).
  const warm = new Map<Running, Slice[]>();
  for (const r of group) {
    assertAlive(r);
    close(r);
    const all = timedSlices(slices.get(r)!, marks.get(r)!);
    const unread = warmUps.get(r) ?? 0;
    if (unread > 0 && all[0]?.cpuS !== undefined) warm.set(r, all.splice(0, unread));
    timed.set(r, all);
  }
  const results = new Map<string, LoadResult>();
  for (const r of group) {
    const [cpuBefore, cpuAfter, unread, read] = [before.get(r), cpuOf(r), warm.get(r), timed.get(r)!];
    // Timed, the read slices' own time (the warm-up's and the waits between left out).
    const cpu = read.every((s) => s.cpuS !== undefined)
      ? read.reduce((sum, s) => sum + s.cpuS!, 0)
      : cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : cpuAfter - cpuBefore;
    const result = resultOf(read, cpu);
    // What failed in a warm-up slice still counts.
    for (const s of unread ?? []) result.failures += s.failures;
    const around = beside.get(r);
    if (yardstick !== undefined && around !== undefined) {
      const ys = timed.get(yardstick)!;
      const readings = around.map(([a, b]) => readingOf([ys[a]!, ys[b]!]));
      if (readings.every((x) => x !== undefined)) result.beside = readings;
      // Slices that do not line up with the yardstick's beside them would be compared by their totals, silently.
      if (result.beside && result.cycles && result.beside.length !== result.cycles.length)
        throw new Error(`${r.server.key}: ${result.cycles.length} read slices but ${result.beside.length} beside them`);
    }
    if (r === yardstick) result.interleaved = true;
    results.set(r.server.key, result);
  }
  for (const r of group) if ((route === 'create' || route === 'mixed') && r.server.resettable) await resetMock(r.base);
  return results;
}

/**
 * Where each server's last slice ends: before the slice at the index it maps to, two after its own (its block's
 * last, once the yardstick's after it is done), as a slice within a block ends where the server's next starts; not
 * at the end of the route, so that a wait for the blocks after it, and what V8 does while idle, counts in no slice.
 * A server whose last slice is one of the last two ends with the route.
 */
export function closings<T>(order: readonly T[]): Map<number, T> {
  const lastAt = new Map(order.map((r, i) => [r, i]));
  const closing = new Map<number, T>();
  for (const [r, i] of lastAt) if (i + 2 < order.length) closing.set(i + 2, r);
  return closing;
}

/**
 * Slices at the head of each block that are not read. One left the control 2 % costlier than the yardstick, seven
 * processes of its code at 50 pets reading 0.982 of it (48 launch ratios, standard error 0.003); three, 0.998
 * (2026-11-30, the list, 16 launches alternating the two two by two): a server idle for six blocks is not warm again
 * after one slice, and the yardstick, which runs in every block, never cools.
 */
export const WARM_UP_SLICES = 3;

/**
 * The order of a route's slices. Without a yardstick: `cycles` cycles of one slice per server, every other cycle in
 * reverse. With one, a block per server in the group's order (which flips every launch), its slices and the
 * yardstick's taking turns (Y A Y A ... Y B Y B ... Y): within a block both run every other slice, so neither comes
 * to its slice warmer than the other (in cycles of one slice each, Y A Y B Y ..., the others waited fourteen slices
 * at 50 pets where the yardstick waited one, and six processes of the mock read 0.877 of it on the list where in
 * blocks they read 0.909, the control 0.976 and 0.985: 12 launches each, the same hour). A block's first slices of its
 * server (`warmUpSlices`, {@link WARM_UP_SLICES}) follow a wait of every other block and are not read (`warmUps`);
 * `cycles` slices follow them. `beside` holds, for each of those slices, the indexes among the yardstick's slices of
 * the one before and the one after; `blockStarts`, the index in `order` of each block's first slice.
 */
export function sliceOrder<T extends { server: { key: string } }>(
  group: readonly T[],
  cycles: number,
  yardstick?: string,
  warmUpSlices = WARM_UP_SLICES,
): { order: T[]; beside: Map<T, [number, number][]>; warmUps: Map<T, number>; blockStarts: Map<number, T> } {
  const y = group.find((r) => r.server.key === yardstick);
  const others = group.filter((r) => r !== y);
  const order: T[] = [];
  const beside = new Map<T, [number, number][]>();
  if (y === undefined || others.length === 0) {
    for (let cycle = 0; cycle < cycles; cycle++) order.push(...(cycle % 2 === 0 ? group : [...group].reverse()));
    return { order, beside, warmUps: new Map(), blockStarts: new Map() };
  }
  let ySlices = 0;
  const blockStarts = new Map<number, T>();
  order.push(y);
  for (const r of others) {
    blockStarts.set(order.length, r);
    for (let w = 0; w < warmUpSlices; w++) {
      order.push(r, y);
      ySlices++;
    }
    const around: [number, number][] = [];
    for (let cycle = 0; cycle < cycles; cycle++) {
      order.push(r, y);
      around.push([ySlices, ySlices + 1]);
      ySlices++;
    }
    beside.set(r, around);
  }
  return { order, beside, warmUps: new Map(others.map((r) => [r, warmUpSlices])), blockStarts };
}

/** The median of per-launch values, and their lowest and highest. */
export function spread(values: number[]): { median: number; range: [number, number] } {
  return { median: median(values), range: [Math.min(...values), Math.max(...values)] };
}

/**
 * Medians over launches; ratios to the minimal server taken launch by launch, where both shared the core, each
 * launch's the median of its slices' ratios (see {@link cycleRatio}).
 */
export function figures(runs: LoadResult[], minimal: LoadResult[]): ServerFigures {
  const rpsLaunches = runs.map((r, i) => cycleRatio(r, minimal[i]!, 'rps'));
  const cpuLaunches = runs.map((r, i) => cycleRatio(r, minimal[i]!, 'cpu'));
  const [rps, cpu] = [spread(rpsLaunches), spread(cpuLaunches)];
  return {
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest)),
    overMinimal: rps.median,
    overMinimalRange: rps.range,
    overMinimalLaunches: rpsLaunches,
    cpuOverMinimal: cpu.median,
    cpuOverMinimalRange: cpu.range,
    cpuOverMinimalLaunches: cpuLaunches,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

function layerFigures(layers: readonly Layer[], runs: Map<string, LoadResult[]>): LayerFigures[] {
  return layers.map((layer): LayerFigures => {
    const pair = (route: LoadName) => {
      const [w, o] = [runs.get(`${route}:${layer.with.key}`)!, runs.get(`${route}:${layer.over.key}`)!];
      // What `with` costs a request beyond `over` in each launch, µs (the median of the slices' differences).
      const cost = spread(w.map((r, i) => perCycle(r, o[i]!, (s, t) => s.cpuUsPerRequest - t.cpuUsPerRequest)));
      return { costUs: cost.median, costRange: cost.range as [number, number] };
    };
    return {
      name: layer.name,
      partOfMock: layer.partOfMock,
      measuredAs: layer.measuredAs,
      with: layer.with.key,
      over: layer.over.key,
      routes: Object.fromEntries(LADDER_LOADS.map((route) => [route, pair(route)])),
    };
  });
}

/**
 * One launch: every server of one store size started fresh (in `order`, by `startOne`), each route loaded, `done`
 * called with the group while it still runs, all stopped.
 */
export async function launch<S extends LoadedServer>(
  order: S[],
  o: Omit<ThroughputOptions, 'layers'>,
  startOne: (server: S) => Promise<Running>,
  runs: Map<string, LoadResult[]>,
  label: string,
  done?: (group: Running[]) => void,
): Promise<void> {
  const group: Running[] = [];
  try {
    for (const server of order) group.push(await startOne(server));
    for (const r of group) {
      await loadSlice(loadOf(r, 'mixed', o), { amount: o.launchWarmup ?? LAUNCH_WARMUP_REQUESTS });
      if (r.server.resettable) await resetMock(r.base);
    }
    for (const route of LOADS) {
      const loaded = group.filter((r) => r.server.loads.includes(route));
      const results = await loadRoute(loaded, route, o);
      for (const [key, result] of results) {
        runs.set(`${route}:${key}`, [...(runs.get(`${route}:${key}`) ?? []), result]);
        o.log(
          `${label} ${route} ${key}: ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest.toFixed(1)} µs CPU/req, p99 ${result.p99Ms.toFixed(2)} ms${result.failures ? `, ${result.failures} FAILURES` : ''}`,
        );
      }
    }
    done?.(group);
  } finally {
    await Promise.all(group.map((r) => r.child.stop()));
  }
}

/**
 * This tree's mock over `--before`'s, per CPU-second and load at each size, in the method's figures (medians of each
 * launch's slice ratios, then over launches, with the median's interval): what a change did, read beside the control.
 */
export function overBefore(servers: readonly BenchServer[], runs: ReadonlyMap<string, LoadResult[]>): string {
  const sizes = servers.flatMap((before) => {
    if (!before.key.endsWith(BEFORE)) return [];
    const mock = before.key.slice(0, -BEFORE.length);
    const reads = LOADS.flatMap((route) => {
      const [now, then] = [runs.get(`${route}:${mock}`), runs.get(`${route}:${before.key}`)];
      if (!now || !then) return [];
      const f = figures(now, then);
      const { interval, coverage } = medianInterval(f.cpuOverMinimalLaunches!);
      const [low, high] = interval.map((x) => x.toFixed(3));
      return [`${route} ${f.cpuOverMinimal.toFixed(3)} (${Math.floor(coverage * 100)} % interval ${low} to ${high})`];
    });
    return [`${before.pets} pets: ${reads.join(', ')}`];
  });
  return `throughput: this mock over --before's, per CPU-second: ${sizes.join('; ')}`;
}

/** The one server of a group every ratio is taken over. */
function yardstickOf(group: readonly BenchServer[]): string {
  const keys = new Set(group.map((s) => s.baseline));
  if (keys.size !== 1) throw new Error(`a group of servers has yardsticks ${[...keys].join(', ')}, not one`);
  return group[0]!.baseline;
}

/** Launches every store size's servers `o.launches` times and loads them; the figures are medians over launches. */
export async function measureThroughput(
  o: ThroughputOptions,
): Promise<{ throughput: ThroughputFigures; layers: LayerFigures[] }> {
  const servers = benchServers(o.layers, o.before === undefined ? [] : mocksBefore(o.before));
  // The answers come from a mock of their own at each size, stopped before loading starts: none of the loaded
  // servers carries the capture's requests, its client's idle connection or an extra start.
  const answersFiles = await writeAnswerFiles(servers, o.project, o.apiKey);
  const plan = cpuPlan();
  const pinned = plan !== undefined && pinSelf(plan.generator);
  if (!pinned) o.log('throughput: taskset or a second CPU is missing: servers and load generator are not pinned');
  const runs = new Map<string, LoadResult[]>();
  const host: NonNullable<ThroughputFigures['host']> = [];
  try {
    for (let n = 1; n <= o.launches; n++)
      for (const pets of new Set(servers.map((s) => s.pets))) {
        const group = servers.filter((s) => s.pets === pets);
        const cpu = pinned ? plan!.servers : undefined;
        const label = `launch ${n}, ${pets} pets:`;
        const serversCpu = cpu === undefined ? undefined : Number(cpu);
        const before = cpuTicks(serversCpu);
        await launch(
          n % 2 === 1 ? group : [...group].reverse(),
          { ...o, yardstick: yardstickOf(group) },
          (server) => start(server, o, answersFiles.get(pets)!, cpu),
          runs,
          label,
        );
        const after = cpuTicks(serversCpu);
        const share = before && after && cpuShare(before, after);
        if (share) {
          host.push({ launch: n, pets, ...share });
          o.log(
            `${label} the servers' CPU ${(share.busy * 100).toFixed(1)} % busy, ${(share.steal * 100).toFixed(2)} % stolen by the host`,
          );
        }
      }
  } finally {
    if (pinned) pinSelf(ALL_CPUS);
  }
  if (o.before !== undefined) o.log(overBefore(servers, runs));
  const routeFigures = (route: Load) =>
    Object.fromEntries(
      servers
        .filter((s) => s.loads.includes(route))
        .map((s) => [s.key, figures(runs.get(`${route}:${s.key}`)!, runs.get(`${route}:${s.baseline}`)!)]),
    );
  return {
    throughput: {
      method: 'slices',
      statistic: 'median',
      ...(everyCycle(runs)
        ? {
            cycles: 'median' as const,
            yardstick: 'blocks' as const,
            warmUpSlices: o.warmUpSlices ?? WARM_UP_SLICES,
            resetsBeforeBlocks: true,
          }
        : {}),
      servers: servers.map((s) => ({
        key: s.key,
        label: s.label,
        command: commandOf(s, o.project, pinned ? plan!.servers : undefined),
      })),
      routes: Object.fromEntries(LOADS.map((route) => [route, routeFigures(route)])),
      ...(host.length > 0 ? { host } : {}),
    },
    layers: layerFigures(o.layers, runs),
  };
}
