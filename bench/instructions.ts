/**
 * The instructions section: the minimal server and the mock each run under
 * `valgrind --tool=callgrind`, and for every route the instructions the
 * server's main thread executes per request, in the steady state: windows of
 * 1,000 requests after the same warm-up, each counted apart, until the mean of
 * the last three no longer falls by 1 % from the three before (six windows at
 * least, twelve at most); the figure is that mean. A mean, not the least
 * window: each run of the young-generation collector counts about 820,000
 * instructions on the main thread, and a window holds a whole number of them
 * (the least window of 500 was the one that held fewest: the same server read
 * up to 2,400 apart between runs); over 3,000 requests one run more or less
 * moves the figure about 0.45 %.
 * Unlike time on this shared machine, the count repeats run after run.
 * Requests go one at a time on one keep-alive connection, so every request
 * costs the server the same event-loop turn whatever its speed; the reset
 * between loads goes over that connection too (a reset from another client,
 * on a new connection, sent node's own request path back to unoptimised code
 * for thousands of requests under valgrind). Both servers run with V8's
 * tier-up budget at a sixteenth, so that more of the warm-up runs optimised
 * code, and the young generation fixed at the size a loaded server grows it
 * to (under valgrind V8 sized it from a distorted clock). V8 compiles and
 * marks on its own threads, which are not counted (on the main thread, a
 * compile or a full collection landing in one run swamps the count). Kernel
 * time is not counted.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LISTENING, serverArgs, writeAnswerFiles } from './answers.ts';
import type { InstalledProject } from './install.ts';
import { type BenchServer, benchServers, type Layer, MINIMAL_AGAIN, MINIMAL_AGAIN_1000 } from './layers.ts';
import { num } from './markdown.ts';
import { type ChildServer, spawnServer, waitForOutput } from './processes.ts';
import { RESET_PATH } from './servers/capture.ts';
import { type LoadName, MIXED_ROUTES, ROUTE_REQUESTS } from './servers/index.ts';

/**
 * Requests counted: after the warm-up, windows of `window` requests each, counted apart, `windows` at least and
 * `maxWindows` at most; the figure is per {@link InstructionCounts.figure}.
 */
export interface InstructionCounts {
  warmup: number;
  window: number;
  /** Windows counted at least. */
  windows: number;
  maxWindows: number;
  /**
   * How the figure is read from the windows: `settled`, the mean of the last {@link SETTLED_SPAN} windows, counted
   * until that mean falls by less than 1 % from the one before; `least` (runs before 2026-11-29, where the field is
   * absent), the least window, counted while a window fell by 1 % below every one before.
   */
  figure?: 'settled' | 'least';
  /** The young generation's semi-space the counted servers ran with, MiB (absent in runs before 2026-11-29 20:15: V8 sized it). */
  semiSpaceMiB?: number;
}

/**
 * The young generation's semi-space, MiB, fixed. V8 sizes it from the allocation rate it measures in time, which
 * valgrind slows some fifty-fold: under callgrind the mock with 1,000 pets collected 2 to 2.5 times per 500 requests
 * and with 50 pets once, while outside valgrind, under the throughput section's load, every server here (the mock at
 * 50 and 1,000 pets, the minimal server) grows it to 8 MiB and holds it there (`v8.getHeapSpaceStatistics()`), and
 * the mock with 1,000 pets collected half as often as with 50 (49 against 98 scavenges in 23,000 requests). So the
 * counted servers get the size the real ones settle at, alike.
 */
const SEMI_SPACE_MIB = 8;

/** The counts every run uses; the mixed load rounds each to whole cycles of its nine requests. */
export const INSTRUCTION_COUNTS: InstructionCounts = {
  warmup: 4_500,
  window: 1_000,
  windows: 6,
  maxWindows: 12,
  figure: 'settled',
  semiSpaceMiB: SEMI_SPACE_MIB,
};

/** Windows whose mean is the figure: 3,000 requests, so one collector run more or less moves it about 0.45 %. */
export const SETTLED_SPAN = 3;

/** How a run counted, for the tables' captions: windows counted apart, and how the figure was read from them. */
export function countingMethod(i: InstructionCounts): string {
  const n = num(i.window);
  const how =
    i.figure === 'settled'
      ? `the mean of the last ${SETTLED_SPAN} of ${i.windows} to ${i.maxWindows} windows of ${n} requests (more while that mean still falls by 1 % from the ${SETTLED_SPAN} before), each counted apart, over ${n},`
      : `the least of ${i.windows} to ${i.maxWindows} windows of ${n} requests (more while the count still falls by 1 %), each counted apart, over ${n},`;
  return i.semiSpaceMiB === undefined
    ? how
    : `${how} V8's young generation fixed at ${i.semiSpaceMiB} MiB a semi-space (what a loaded server grows it to),`;
}

/** A mean of the last windows below this share of the mean of the ones before is still falling: count another. */
const STILL_FALLING = 0.99;

/**
 * Counts windows (`next` gives one window's instructions per request) until the count settles, and returns the figure
 * with every window's count: the mean of the last {@link SETTLED_SPAN}, once it no longer falls by 1 % from the mean
 * of the ones before it, or after `maxWindows`.
 */
export async function settledCount(
  next: () => Promise<number>,
  { windows, maxWindows }: Pick<InstructionCounts, 'windows' | 'maxWindows'>,
): Promise<{ figure: number; counts: number[] }> {
  const counts: number[] = [];
  const mean = (from: number) => counts.slice(from, from + SETTLED_SPAN).reduce((a, b) => a + b, 0) / SETTLED_SPAN;
  const falling = () => mean(counts.length - SETTLED_SPAN) < STILL_FALLING * mean(counts.length - 2 * SETTLED_SPAN);
  while (counts.length < Math.max(windows, 2 * SETTLED_SPAN) || (counts.length < maxWindows && falling()))
    counts.push(await next());
  return { figure: mean(counts.length - SETTLED_SPAN), counts };
}

/** Requests of one load just before it is counted, after the warm-up: what the load reaches first settles. */
const SETTLE = 100;

/** Instructions per request of one server on one load. */
export interface InstructionFigures {
  /** The server's key (bench/layers.ts). */
  server: string;
  load: LoadName;
  perRequest: number;
}

/** Options for {@link measureInstructions}. */
export interface InstructionOptions {
  project: InstalledProject;
  apiKey: string;
  /** The ladder whose servers are measured (bench/layers.ts). */
  layers: readonly Layer[];
  requests?: InstructionCounts;
  /** Where the callgrind files go (they are removed, unless `keep`). */
  work: string;
  /** Keep the mock's callgrind files (one per dump) for callgrind_annotate. */
  keep?: boolean;
  log: (line: string) => void;
}

const run = promisify(execFile);

/**
 * V8 optimises a function once it has run about this many bytes of bytecode several times over; its default,
 * 67,584, leaves much of a request's code unoptimised after a thousand requests, and under valgrind many more take
 * minutes. A sixteenth of it reaches, within the warm-up, the optimised code a server runs after seconds of load.
 */
const INTERRUPT_BUDGET = 4_096;

/** The V8 flags of every server counted under callgrind (here and in the sessions section). */
export const COUNTING_FLAGS = [
  `--interrupt-budget=${INTERRUPT_BUDGET}`,
  `--min-semi-space-size=${SEMI_SPACE_MIB}`,
  `--max-semi-space-size=${SEMI_SPACE_MIB}`,
] as const;

/** The number of requests of a load: a multiple of the mixed load's cycle for `mixed`. */
function whole(load: LoadName, n: number): number {
  return load === 'mixed' ? Math.round(n / MIXED_ROUTES.length) * MIXED_ROUTES.length : n;
}

/** One request over `agent`'s connection; its status once the answer is read. */
function ask(
  url: URL,
  path: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: Agent,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends `n` requests of `load`, one at a time on one keep-alive connection; throws on a status that is not 2xx. */
async function drive(base: string, apiKey: string, load: LoadName, n: number, agent: Agent): Promise<void> {
  const url = new URL(base);
  for (let i = 0; i < n; i++) {
    const r = ROUTE_REQUESTS[load === 'mixed' ? MIXED_ROUTES[i % MIXED_ROUTES.length]! : load];
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if ('body' in r) headers['content-type'] = 'application/json';
    const status = await ask(
      url,
      `${url.pathname}${r.path}`,
      r.method,
      headers,
      'body' in r ? r.body : undefined,
      agent,
    );
    if (status < 200 || status > 299) throw new Error(`${r.method} ${r.path} answered ${status}`);
  }
}

/** Puts the server back to its seeded pets over the load's own connection (see the section's comment for why). */
async function resetOver(base: string, agent: Agent): Promise<void> {
  const status = await ask(new URL(base), RESET_PATH, 'POST', {}, undefined, agent);
  if (status !== 200) throw new Error(`POST ${RESET_PATH} answered ${status}`);
}

/** A server under callgrind, and the instructions its main thread ran since the last dump. */
interface Counted {
  child: ChildServer;
  base: string;
  /** Dumps callgrind's counts (which zeroes them) and returns the main thread's. */
  dump(): Promise<number>;
}

async function startCounted(args: string[], o: InstructionOptions, name: string): Promise<Counted> {
  const prefix = `callgrind.${name}`;
  const child = spawnServer({
    command: 'valgrind',
    args: [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(o.work, `${prefix}.%p`)}`,
      process.execPath,
      ...COUNTING_FLAGS,
      ...args,
    ],
    cwd: o.project.dir,
    maxLifetimeMs: 20 * 60_000,
  });
  const { match } = await waitForOutput(child, LISTENING, 300_000);
  const pid = child.child.pid!;
  const mainThread = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.${pid}\\.(\\d+)-(\\d+)$`);
  return {
    child,
    base: match[1]!,
    async dump() {
      await run('callgrind_control', ['--dump', String(pid)], { timeout: 120_000 });
      const files = readdirSync(o.work).flatMap((f) => {
        const match = mainThread.exec(f);
        return match ? [{ f, n: Number(match[1]), thread: Number(match[2]) }] : [];
      });
      // Only the main thread counts (the others are V8's helpers and libuv's pool); its files are kept for annotating.
      for (const other of files.filter((d) => d.thread !== 1)) rmSync(join(o.work, other.f));
      const dumps = files.filter((d) => d.thread === 1).sort((a, b) => b.n - a.n);
      if (!dumps[0]) throw new Error(`callgrind wrote no dump for ${name}`);
      const text = readFileSync(join(o.work, dumps[0].f), 'utf8');
      const summary = /^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text);
      if (!summary) throw new Error(`no summary in ${dumps[0].f}`);
      return Number(summary[1]);
    },
  };
}

/**
 * Per request on each load: warm-up, then windows of the same number of requests, each counted apart, until they
 * settle ({@link settledCount}). The garbage collector's work stays in, averaged over the last windows.
 */
async function countLoads(
  server: Counted,
  loads: readonly LoadName[],
  o: InstructionOptions,
): Promise<Map<LoadName, number>> {
  const { warmup, window } = o.requests ?? INSTRUCTION_COUNTS;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const result = new Map<LoadName, number>();
  try {
    // One warm-up for every load: the mixed load asks every route (the ladder's rungs take their loads in turn).
    const warming: readonly LoadName[] = loads.includes('mixed') ? ['mixed'] : loads;
    for (const load of warming) await drive(server.base, o.apiKey, load, whole(load, warmup / warming.length), agent);
    for (const load of loads) {
      await resetOver(server.base, agent);
      await drive(server.base, o.apiKey, load, whole(load, SETTLE), agent);
      await server.dump();
      // Under valgrind V8's compiler threads get few turns: a server with more code may still be tiering up after
      // three windows (its count falling by several per cent a window), so counting goes on until it settles.
      const { figure, counts } = await settledCount(async () => {
        await drive(server.base, o.apiKey, load, whole(load, window), agent);
        return (await server.dump()) / whole(load, window);
      }, o.requests ?? INSTRUCTION_COUNTS);
      result.set(load, figure);
      o.log(`instructions ${load}: windows ${counts.map((c) => Math.round(c)).join(', ')}`);
    }
  } finally {
    agent.destroy();
  }
  return result;
}

/** Measures every server of the throughput section on its loads, one at a time under valgrind. */
export async function measureInstructions(o: InstructionOptions): Promise<InstructionFigures[]> {
  // The rungs of the mock row; the request log (not part of it) only adds a slow write to stderr under valgrind.
  const servers = benchServers(o.layers.filter((l) => l.partOfMock)).filter(
    (s) => s !== MINIMAL_AGAIN && s !== MINIMAL_AGAIN_1000,
  );
  const answers = await writeAnswerFiles(servers, o.project, o.apiKey);
  const figures: InstructionFigures[] = [];
  const measure = async (server: BenchServer): Promise<void> => {
    o.log(`instructions: ${server.key} under callgrind`);
    const counted = await startCounted(
      serverArgs(server, o.project, o.apiKey, answers.get(server.pets)!),
      o,
      server.key,
    );
    try {
      for (const [load, perRequest] of await countLoads(counted, server.loads, o)) {
        figures.push({ server: server.key, load, perRequest });
        o.log(`instructions ${server.key} ${load}: ${Math.round(perRequest)} per request`);
      }
    } finally {
      await counted.child.stop();
    }
  };
  // Two servers at a time: a count does not depend on what else runs, and valgrind runs each on one core.
  const queue = [...servers];
  const worker = async (): Promise<void> => {
    for (let server = queue.shift(); server; server = queue.shift()) await measure(server);
  };
  await Promise.all([worker(), worker()]);
  figures.sort((a, b) => servers.findIndex((s) => s.key === a.server) - servers.findIndex((s) => s.key === b.server));
  if (!o.keep) for (const f of readdirSync(o.work)) if (f.startsWith('callgrind.')) rmSync(join(o.work, f));
  return figures;
}
