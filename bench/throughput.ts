/**
 * The throughput section: every server of bench/layers.ts on every route, 32
 * connections, interleaved (the order reversed every other round, so a drift
 * in the machine's load favours none). Each server runs in a process of its
 * own; autocannon runs in this one.
 */
import { LISTENING, serverArgs, writeAnswerFiles } from './answers.ts';
import type { InstalledProject } from './install.ts';
import { type BenchServer, benchServers, LADDER_LOADS, type Layer } from './layers.ts';
import { type LoadResult, median, runLoad } from './load.ts';
import { type ChildServer, spawnServer, waitForOutput } from './processes.ts';
import type { LayerFigures, LoadName, ServerFigures, ThroughputFigures } from './report.ts';
import { type LoadName as Load, MIXED_ROUTES, ROUTE_REQUESTS, resetMock } from './servers/index.ts';

/** Options for {@link measureThroughput}. */
export interface ThroughputOptions {
  apiKey: string;
  layers: readonly Layer[];
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  /** Where the servers run from: the installed package and the bench's servers as JavaScript. */
  project: InstalledProject;
  log: (line: string) => void;
}

interface Running {
  server: BenchServer;
  child: ChildServer;
  /** Base URL, ending in /v1. */
  base: string;
}

const LOADS: Load[] = ['list', 'sold', 'get', 'create', 'mixed'];

/** How each server is started in the installed project, as shown in the tables (K: the key). */
export function commandOf(server: BenchServer, project: InstalledProject): string {
  const s = server.start;
  if (s.kind === 'bench') return `node ${project.benchServers} --variant ${s.variant}`;
  return [`node ${project.mockBin} --port 0 --api-key K`, ...s.args].join(' ');
}

/** Servers live as long as the section needs them; this only bounds a bench that hangs. */
const SERVER_LIFETIME_MS = 30 * 60_000;

async function start(server: BenchServer, o: ThroughputOptions, answersFile: string): Promise<Running> {
  const s = server.start;
  const args = serverArgs(server, o.project, o.apiKey, answersFile);
  const child = spawnServer({
    command: process.execPath,
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
function mixedRequests(base: string, apiKey: string): NonNullable<Parameters<typeof runLoad>[0]['requests']> {
  const prefix = new URL(base).pathname;
  return MIXED_ROUTES.map((route) => {
    const r = ROUTE_REQUESTS[route];
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if ('body' in r) headers['content-type'] = 'application/json';
    return { method: r.method, path: `${prefix}${r.path}`, headers, ...('body' in r ? { body: r.body } : {}) };
  });
}

async function loadOnce(running: Running, route: Load, o: ThroughputOptions): Promise<LoadResult> {
  assertAlive(running);
  const r = ROUTE_REQUESTS[route === 'mixed' ? 'list' : route];
  const headers: Record<string, string> = { authorization: `Bearer ${o.apiKey}` };
  if ('body' in r) headers['content-type'] = 'application/json';
  const result = await runLoad({
    url: `${running.base}${r.path}`,
    method: r.method,
    headers,
    body: 'body' in r ? r.body : undefined,
    ...(route === 'mixed' ? { requests: mixedRequests(running.base, o.apiKey) } : {}),
    connections: o.connections,
    duration: o.duration,
    warmup: o.warmup,
    pid: running.child.child.pid!,
  });
  assertAlive(running);
  if ((route === 'create' || route === 'mixed') && running.server.resettable) await resetMock(running.base);
  return result;
}

/** The median of per-round values, and their lowest and highest. */
function spread(values: number[]): { median: number; range: [number, number] } {
  return { median: median(values), range: [Math.min(...values), Math.max(...values)] };
}

/** Medians of each server's rounds; ratios to the minimal server taken round by round. */
function figures(runs: LoadResult[], minimal: LoadResult[]): ServerFigures {
  const rps = spread(runs.map((r, i) => r.rps / minimal[i]!.rps));
  const cpu = spread(runs.map((r, i) => minimal[i]!.cpuUsPerRequest / r.cpuUsPerRequest));
  return {
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest)),
    overMinimal: rps.median,
    overMinimalRange: rps.range,
    cpuOverMinimal: cpu.median,
    cpuOverMinimalRange: cpu.range,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

function layerFigures(layers: readonly Layer[], runs: Map<string, LoadResult[]>): LayerFigures[] {
  return layers.map((layer): LayerFigures => {
    const pair = (route: LoadName) => {
      const [w, o] = [runs.get(`${route}:${layer.with.key}`)!, runs.get(`${route}:${layer.over.key}`)!];
      const cost = spread(w.map((r, i) => r.cpuUsPerRequest - o[i]!.cpuUsPerRequest));
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

/** Loads each route on each server in turn, `rounds` times, the order reversed every other round; runs by `route:key`. */
async function loadRounds(ordered: Running[], o: ThroughputOptions): Promise<Map<string, LoadResult[]>> {
  const runs = new Map<string, LoadResult[]>();
  for (let round = 1; round <= o.rounds; round++) {
    for (const route of LOADS) {
      for (const r of round % 2 === 1 ? ordered : [...ordered].reverse()) {
        if (!r.server.loads.includes(route)) continue;
        const result = await loadOnce(r, route, o);
        runs.set(`${route}:${r.server.key}`, [...(runs.get(`${route}:${r.server.key}`) ?? []), result]);
        o.log(
          `round ${round} ${route} ${r.server.key}: ${Math.round(result.rps)} req/s, ${result.cpuUsPerRequest.toFixed(1)} µs CPU/req, p99 ${result.p99Ms.toFixed(2)} ms${result.failures ? `, ${result.failures} FAILURES` : ''}`,
        );
      }
    }
  }
  return runs;
}

/** Starts every server (the mock first, for the minimal server's answers), loads them, and stops them. */
export async function measureThroughput(
  o: ThroughputOptions,
): Promise<{ throughput: ThroughputFigures; layers: LayerFigures[] }> {
  const servers = benchServers(o.layers);
  const running: Running[] = [];
  try {
    // The answers come from a mock of their own at each size, stopped before loading starts: none of the loaded
    // servers carries the capture's requests, its client's idle connection or an extra start.
    const answersFiles = await writeAnswerFiles(servers, o.project, o.apiKey);
    for (const server of servers) running.push(await start(server, o, answersFiles.get(server.pets)!));
    const runs = await loadRounds(
      servers.map((s) => running.find((r) => r.server === s)!),
      o,
    );
    const routeFigures = (route: Load) =>
      Object.fromEntries(
        servers
          .filter((s) => s.loads.includes(route))
          .map((s) => [s.key, figures(runs.get(`${route}:${s.key}`)!, runs.get(`${route}:${s.baseline}`)!)]),
      );
    return {
      throughput: {
        servers: servers.map((s) => ({ key: s.key, label: s.label, command: commandOf(s, o.project) })),
        routes: Object.fromEntries(LOADS.map((route) => [route, routeFigures(route)])),
      },
      layers: layerFigures(o.layers, runs),
    };
  } finally {
    await Promise.all(running.map((r) => r.child.stop()));
  }
}
