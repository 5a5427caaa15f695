/**
 * The instructions section: the minimal server and the mock each run under
 * `valgrind --tool=callgrind`, and for every route the instructions the
 * server's main thread executes per request: the least of the windows of
 * 500 requests after the same warm-up, each counted apart (three, and more
 * while the count still falls, up to eight). Unlike
 * time on this shared machine, the count repeats run after run. Requests go
 * one at a time on one keep-alive connection, so every request costs the
 * server the same event-loop turn whatever its speed. Both servers run with
 * V8's tier-up budget at a sixteenth, so that more of the warm-up runs
 * optimised code. V8 compiles and marks on its own threads, which are not
 * counted (on the main thread, a compile or a full collection landing in one
 * run swamps the count). Kernel time is not counted.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LISTENING, serverArgs, writeAnswerFiles } from './answers.ts';
import type { InstalledProject } from './install.ts';
import { type BenchServer, benchServers, type Layer, MINIMAL_AGAIN, MINIMAL_AGAIN_1000 } from './layers.ts';
import { type ChildServer, spawnServer, waitForOutput } from './processes.ts';
import { type LoadName, MIXED_ROUTES, ROUTE_REQUESTS, resetMock } from './servers/index.ts';

/**
 * Requests counted: after the warm-up, `windows` windows of `window` requests each, counted apart; the figure is the
 * least window's count over `window`.
 */
export interface InstructionCounts {
  warmup: number;
  window: number;
  /** Windows counted at least; more, up to `maxWindows`, while a window still counts 1 % less than every one before. */
  windows: number;
  maxWindows: number;
}

/** The counts every run uses; the mixed load rounds each to whole cycles of its nine requests. */
export const INSTRUCTION_COUNTS: InstructionCounts = { warmup: 1_500, window: 500, windows: 3, maxWindows: 8 };

/** A window counting less than this share of the least before it is still falling: another window is counted. */
const STILL_FALLING = 0.99;

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

/** The number of requests of a load: a multiple of the mixed load's cycle for `mixed`. */
function whole(load: LoadName, n: number): number {
  return load === 'mixed' ? Math.round(n / MIXED_ROUTES.length) * MIXED_ROUTES.length : n;
}

/** Sends `n` requests of `load`, one at a time on one keep-alive connection; throws on a status that is not 2xx. */
async function drive(base: string, apiKey: string, load: LoadName, n: number, agent: Agent): Promise<void> {
  const url = new URL(base);
  for (let i = 0; i < n; i++) {
    const r = ROUTE_REQUESTS[load === 'mixed' ? MIXED_ROUTES[i % MIXED_ROUTES.length]! : load];
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if ('body' in r) headers['content-type'] = 'application/json';
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: `${url.pathname}${r.path}`, method: r.method, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end('body' in r ? r.body : undefined);
    });
    if (status < 200 || status > 299) throw new Error(`${r.method} ${r.path} answered ${status}`);
  }
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
      `--interrupt-budget=${INTERRUPT_BUDGET}`,
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
 * Per request on each load: warm-up, then windows of the same number of requests, each counted apart; the least
 * window's count per request. V8 still optimises (or drops optimised code) now and then, on the main thread's turn:
 * a window it lands in counts that work besides the requests', which the least window leaves out; the garbage
 * collector's work, spread over every window, stays in.
 */
async function countLoads(
  server: Counted,
  loads: readonly LoadName[],
  o: InstructionOptions,
): Promise<Map<LoadName, number>> {
  const { warmup, window, windows, maxWindows } = o.requests ?? INSTRUCTION_COUNTS;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const result = new Map<LoadName, number>();
  try {
    // One warm-up for every load: the mixed load asks every route (the ladder's rungs take their loads in turn).
    const warming: readonly LoadName[] = loads.includes('mixed') ? ['mixed'] : loads;
    for (const load of warming) await drive(server.base, o.apiKey, load, whole(load, warmup / warming.length), agent);
    for (const load of loads) {
      await resetMock(server.base);
      await drive(server.base, o.apiKey, load, whole(load, SETTLE), agent);
      await server.dump();
      const counts: number[] = [];
      // Under valgrind V8's compiler threads get few turns: a server with more code may still be tiering up after
      // three windows (its count falling by several per cent a window), so counting goes on until it settles.
      const falling = () => counts.at(-1)! < STILL_FALLING * Math.min(...counts.slice(0, -1));
      while (counts.length < windows || (counts.length < maxWindows && falling())) {
        await drive(server.base, o.apiKey, load, whole(load, window), agent);
        counts.push((await server.dump()) / whole(load, window));
      }
      result.set(load, Math.min(...counts));
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
