/**
 * The peers section: the tools a user would pick instead of the mock, run beside it in the same launches and loaded
 * the same way as the throughput section (one CPU, turns in short slices, CPU from /proc, medians over launches of
 * fresh processes, a second mock process as the control), but in plain cycles, the mock's slice not between every
 * two others': the peers' ratios are tenfold, not a few per cent, and plain cycles take less time. Each peer is installed from the npm registry into the
 * bench's temporary project and seeded with the mock's own pets where it can hold them. Where a peer cannot answer a
 * route as the contract says, the section records what it answered and compares anyway: what a user would get.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { InstalledProject } from './install.ts';
import { cycleRatio, type LoadResult, median } from './load.ts';
import { notMeasured, num, ratio, table } from './markdown.ts';
import type { PeerAnswer, PeerFigures, PeersFigures } from './peers-figures.ts';
import { freePort, peakRssBytes, spawnServer, waitFor200 } from './processes.ts';
import { type LoadName, ROUTE_REQUESTS, ROUTE_TITLES } from './servers/index.ts';
import {
  ALL_CPUS,
  cpuPlan,
  everyCycle,
  LOADS,
  type LoadedServer,
  launch,
  nodeOn,
  pinSelf,
  type Running,
  SERVER_LIFETIME_MS,
  shownCommand,
  spread,
  type ThroughputOptions,
} from './throughput.ts';

/** The peers' exact versions, installed into the bench's temporary project (never a global install). */
export const PEER_PACKAGES = {
  '@stoplight/prism-cli': '5.14.2',
  '@mockoon/cli': '9.9.0',
  'json-server': '0.17.4',
  msw: '3.0.5',
} as const;

type PeerKind = 'mock' | 'prism' | 'mockoon' | 'json-server' | 'msw';

/** A server of the section at one store size. */
interface Peer extends LoadedServer {
  kind: PeerKind;
  label: string;
  pets: number;
  /** How its pets come about, in the table. */
  seeded: string;
}

const SIZES = [50, 1_000] as const;

/** The servers of one store size, the mock first: it is every ratio's baseline, the second mock the control. */
function peersAt(pets: number): Peer[] {
  const at = (key: string) => (pets === 50 ? key : `${key}-${pets}`);
  const seededPets = `the mock's ${num(pets)} pets`;
  const loads = LOADS;
  return [
    { kind: 'mock', key: at('mock'), label: 'mock (petstore-mock --quiet)', seeded: seededPets, resettable: true },
    {
      kind: 'mock',
      key: at('mock-again'),
      label: 'control: the mock again',
      seeded: seededPets,
      resettable: true,
    },
    {
      kind: 'prism',
      key: at('prism'),
      label: `Prism ${PEER_PACKAGES['@stoplight/prism-cli']} mock`,
      seeded: "none: stateless, the document's examples",
      resettable: false,
    },
    {
      kind: 'mockoon',
      key: at('mockoon'),
      label: `Mockoon CLI ${PEER_PACKAGES['@mockoon/cli']}`,
      seeded: 'none: stateless, the imported routes answer generated pets',
      resettable: false,
    },
    {
      kind: 'json-server',
      key: at('json-server'),
      label: `json-server ${PEER_PACKAGES['json-server']}`,
      seeded: `${seededPets} in db.json (copied fresh each launch; POSTs written to it)`,
      resettable: false,
    },
    {
      kind: 'msw',
      key: at('msw'),
      label: `the mock's MSW handlers, msw ${PEER_PACKAGES.msw}, over node:http`,
      seeded: seededPets,
      resettable: true,
    },
  ].map((p) => ({ ...p, kind: p.kind as PeerKind, pets, loads }));
}

/**
 * MSW's handlers over node:http, as @mswjs/http-middleware serves them: each request made a Fetch Request and given
 * to msw's getResponse. (@mswjs/http-middleware 0.10.3 itself calls msw's handleRequest, which msw 3 no longer has.)
 */
const MSW_SERVER = `import { createServer } from 'node:http';
import { getResponse } from 'msw';
import { createMswHandlers } from 'petstore-toolkit/msw';
const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const port = Number(arg('--port'));
const origin = 'http://127.0.0.1:' + port;
const count = Number(arg('--count'));
const { handlers } = createMswHandlers({ baseUrl: origin + '/v1', apiKeys: [arg('--api-key')], ...(count === 50 ? {} : { count }) });
createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
  const response = await getResponse(handlers, new Request(origin + req.url, { method: req.method, headers, body }));
  if (!response) return void res.writeHead(404).end();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}).listen(port, '127.0.0.1');
`;

/** The mock's pets at a size, as JSON: what json-server is seeded with. */
const DUMP_PETS = `const { createMswHandlers } = await import('petstore-toolkit/msw');
const count = Number(process.argv[1]);
const mock = createMswHandlers(count === 50 ? {} : { count });
// Another count than the default loads faker and seeds after it: until then the store is empty.
await mock.ready;
process.stdout.write(JSON.stringify({ pets: await mock.pets.all() }));
await mock.close();
`;

/** json-server answers the contract's paths and its limit (its own `_limit`), as a user would configure it. */
const JSON_SERVER_ROUTES = {
  '/v1/pets?status=:status&limit=:limit': '/pets?status=:status&_limit=:limit',
  '/v1/pets?limit=:limit': '/pets?_limit=:limit',
  '/v1/*': '/$1',
};

const run = promisify(execFile);

/** Installs the peers from the registry into the project; writes the MSW server, json-server's files, Mockoon's environment. */
async function preparePeers(project: InstalledProject): Promise<Record<string, string>> {
  const dir = project.dir;
  const specs = Object.entries(PEER_PACKAGES).map(([name, version]) => `${name}@${version}`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], {
    cwd: dir,
    timeout: 600_000,
    maxBuffer: 16 * 2 ** 20,
  });
  writeFileSync(join(dir, 'msw-server.mjs'), MSW_SERVER);
  writeFileSync(join(dir, 'json-server-routes.json'), JSON.stringify(JSON_SERVER_ROUTES));
  for (const pets of SIZES) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', DUMP_PETS, String(pets)], {
      cwd: dir,
      maxBuffer: 64 * 2 ** 20,
    });
    const seeded = (JSON.parse(stdout) as { pets: unknown[] }).pets.length;
    if (seeded !== pets) throw new Error(`json-server's database: the mock gave ${seeded} pets, not ${pets}`);
    writeFileSync(join(dir, `json-server-db-${pets}.json`), stdout);
  }
  const spec = join(dir, 'node_modules', 'petstore-toolkit', 'spec', 'petstore.openapi.yaml');
  await run(process.execPath, [binOf(dir, '@mockoon/cli'), 'import', '--input', spec, '--output', 'mockoon.json'], {
    cwd: dir,
    timeout: 120_000,
  });
  const versions: Record<string, string> = {};
  for (const name of Object.keys(PEER_PACKAGES)) versions[name] = packageOf(dir, name).version;
  return versions;
}

function packageOf(dir: string, name: string): { version: string; bin: string | Record<string, string> } {
  return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
}

/** A package's (first) bin as installed, relative to the project. */
function binOf(dir: string, name: string): string {
  const { bin } = packageOf(dir, name);
  return join('node_modules', name, typeof bin === 'string' ? bin : Object.values(bin)[0]!);
}

/** The node arguments that start `peer` on `port`, and its base URL (Prism serves the document's paths at the root). */
function startOf(
  peer: Peer,
  project: InstalledProject,
  port: number,
  apiKey: string,
): { args: string[]; base: string } {
  const dir = project.dir;
  const host = ['127.0.0.1', String(port)];
  const v1 = `http://127.0.0.1:${port}/v1`;
  switch (peer.kind) {
    case 'mock': {
      const count = peer.pets === 50 ? [] : ['--count', String(peer.pets)];
      return { args: [project.mockBin, '--port', host[1]!, '--api-key', apiKey, '--quiet', ...count], base: v1 };
    }
    case 'prism':
      // Logging at warn, its closest to the mock's --quiet; one process (the default unless NODE_ENV=production),
      // so its CPU time is one process's.
      return {
        args: [
          binOf(dir, '@stoplight/prism-cli'),
          'mock',
          '-m',
          'false',
          '-v',
          'warn',
          '-h',
          host[0]!,
          '-p',
          host[1]!,
          'node_modules/petstore-toolkit/spec/petstore.openapi.yaml',
        ],
        base: `http://127.0.0.1:${port}`,
      };
    case 'mockoon':
      // Its log to stdout only (the default also writes one under the home directory); no admin API.
      return {
        args: [
          binOf(dir, '@mockoon/cli'),
          'start',
          '-d',
          'mockoon.json',
          '-p',
          host[1]!,
          '-l',
          host[0]!,
          '-X',
          '--disable-admin-api',
        ],
        base: v1,
      };
    case 'json-server': {
      const db = `json-server-db-${peer.pets}.live.json`;
      copyFileSync(join(dir, `json-server-db-${peer.pets}.json`), join(dir, db));
      return {
        args: [
          binOf(dir, 'json-server'),
          '--port',
          host[1]!,
          '--host',
          host[0]!,
          '--routes',
          'json-server-routes.json',
          '--quiet',
          db,
        ],
        base: v1,
      };
    }
    case 'msw':
      return {
        args: ['msw-server.mjs', '--port', host[1]!, '--api-key', apiKey, '--count', String(peer.pets)],
        base: v1,
      };
  }
}

/**
 * What starts a peer from its node arguments, pinned to `cpu` when one is given: what is spawned (this process's node,
 * first) and what is shown (`node`; K: the key, P: the port), from one prefix. Without the throughput section's flags:
 * the peers' figures (their memory among them) are of each as users start it.
 */
export function peerCommand(
  args: readonly string[],
  cpu: string | undefined,
  apiKey: string,
  port: number,
): { argv: string[]; shown: string } {
  const argv = [...nodeOn(cpu, []), ...args];
  return { argv, shown: shownCommand(argv).replaceAll(apiKey, 'K').replace(String(port), 'P') };
}

/** One request of `route`: what a user gets from this server. */
async function answerOf(base: string, route: Exclude<LoadName, 'mixed'>, apiKey: string): Promise<PeerAnswer> {
  const r = ROUTE_REQUESTS[route];
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if ('body' in r) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${r.path}`, {
    method: r.method,
    headers,
    body: 'body' in r ? r.body : null,
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  const answer: PeerAnswer = { status: response.status, bytes: Buffer.byteLength(body) };
  try {
    const parsed: unknown = JSON.parse(body);
    if (Array.isArray(parsed)) answer.items = parsed.length;
  } catch {
    // Not JSON: its status and size say what it was.
  }
  return answer;
}

/** Options for {@link measurePeers}. */
export type PeersOptions = Omit<ThroughputOptions, 'layers' | 'ownSlices' | 'launchWarmup'> & {
  command: string;
  loadAverage: string;
};

/**
 * The mixed requests each fresh process gets before anything is measured: fewer than the throughput section's
 * 20,000, which json-server and Prism take minutes to answer on a shared CPU.
 */
const PEER_LAUNCH_WARMUP = 5_000;

/** Installs the peers, then launches them beside the mock at each size `o.launches` times and loads them. */
export async function measurePeers(o: PeersOptions): Promise<PeersFigures> {
  o.log(`peers: installing ${Object.keys(PEER_PACKAGES).join(', ')} from the registry into the temporary project`);
  const versions = await preparePeers(o.project);
  const dir = o.project.dir;
  const plan = cpuPlan();
  const pinned = plan !== undefined && pinSelf(plan.generator);
  if (!pinned) o.log('peers: taskset or a second CPU is missing: servers and load generator are not pinned');
  const cpu = pinned ? plan!.servers : undefined;
  const runs = new Map<string, LoadResult[]>();
  const starts = new Map<string, number[]>();
  const memory = new Map<string, number[]>();
  const answers = new Map<string, PeerFigures['answers']>();
  const commands = new Map<string, string>();
  const push = (map: Map<string, number[]>, key: string, value: number) =>
    map.set(key, [...(map.get(key) ?? []), value]);
  const startOne = async (peer: Peer): Promise<Running> => {
    const port = await freePort();
    const { args, base } = startOf(peer, o.project, port, o.apiKey);
    const { argv, shown } = peerCommand(args, cpu, o.apiKey, port);
    const [command, ...rest] = argv;
    const child = spawnServer({ command: command!, args: rest, cwd: dir, maxLifetimeMs: SERVER_LIFETIME_MS });
    const headers = { authorization: `Bearer ${o.apiKey}` };
    push(starts, peer.key, await waitFor200(child, `${base}${ROUTE_REQUESTS.get.path}`, headers, 120_000));
    commands.set(peer.key, shown);
    if (!answers.has(peer.key)) {
      const seen: PeerFigures['answers'] = {};
      for (const route of ['list', 'sold', 'get', 'create'] as const)
        seen[route] = await answerOf(base, route, o.apiKey);
      answers.set(peer.key, seen);
    }
    return { server: peer, child, base };
  };
  try {
    for (let n = 1; n <= o.launches; n++)
      for (const pets of SIZES) {
        const group = peersAt(pets);
        // Each server's slices sized from its own warm-up rate, and the peers' shorter launch warm-up: until
        // 2026-11-29 neither reached the launch, so every server's slice was the group's median rate (about 250
        // requests, each slice opening its 32 connections again: the mock read 50 to 100 µs a request here against
        // 30 in the throughput section), and Prism and json-server took 20,000 requests each to warm up.
        await launch(
          n % 2 === 1 ? group : [...group].reverse(),
          { ...o, ownSlices: true, launchWarmup: PEER_LAUNCH_WARMUP },
          startOne,
          runs,
          `peers, launch ${n}, ${pets} pets:`,
          (live) => {
            for (const r of live) push(memory, r.server.key, peakRssBytes(r.child.child.pid!) ?? NaN);
          },
        );
      }
  } finally {
    if (pinned) pinSelf(ALL_CPUS);
  }
  const servers = SIZES.flatMap((pets) => {
    const group = peersAt(pets);
    const mock = group[0]!.key;
    const over = (values: number[], base: number[]) => median(values.map((v, i) => v / base[i]!));
    return group.map(
      (peer): PeerFigures => ({
        key: peer.key,
        label: peer.label,
        pets,
        seeded: peer.seeded,
        command: commands.get(peer.key)!,
        startMs: median(starts.get(peer.key)!),
        startOverMock: over(starts.get(peer.key)!, starts.get(mock)!),
        peakRssBytes: median(memory.get(peer.key)!),
        rssOverMock: over(memory.get(peer.key)!, memory.get(mock)!),
        answers: answers.get(peer.key)!,
        routes: Object.fromEntries(
          LOADS.map((route) => {
            const [mine, base] = [runs.get(`${route}:${peer.key}`)!, runs.get(`${route}:${mock}`)!];
            const cpu = spread(mine.map((r, i) => cycleRatio(r, base[i]!, 'cpu')));
            return [
              route,
              {
                rps: median(mine.map((r) => r.rps)),
                p99Ms: median(mine.map((r) => r.p99Ms)),
                cpuUsPerRequest: median(mine.map((r) => r.cpuUsPerRequest)),
                rpsOverMock: median(mine.map((r, i) => cycleRatio(r, base[i]!, 'rps'))),
                cpuOverMock: cpu.median,
                cpuOverMockRange: cpu.range as [number, number],
                p99OverMock: over(
                  mine.map((r) => r.p99Ms),
                  base.map((r) => r.p99Ms),
                ),
                failures: mine.reduce((sum, r) => sum + r.failures, 0),
              },
            ];
          }),
        ),
      }),
    );
  });
  return {
    command: o.command,
    generatedAt: new Date().toISOString(),
    loadAverage: o.loadAverage,
    launches: o.launches,
    statistic: 'median',
    ...(everyCycle(runs) ? { cycles: 'median' as const } : {}),
    launchWarmup: PEER_LAUNCH_WARMUP,
    sliceS: o.slice,
    durationS: o.duration,
    versions,
    servers,
  };
}

/** A ratio, or `≈` before it when it is no further from 1.00x than the control's same ratio: the method cannot tell it. */
function told(value: number, control: number | undefined): string {
  const within = control !== undefined && Math.abs(value - 1) <= Math.abs(control - 1);
  return `${within ? '≈' : ''}${ratio(value)}`;
}

function answered(a: PeerAnswer | undefined): string {
  if (!a) return 'n/a';
  return `${a.status}${a.items === undefined ? '' : `, ${num(a.items)} pets`}, ${num(a.bytes)} B`;
}

/** The peers' tables: each server beside the mock, and what each answered. */
export function peersTables(p: PeersFigures | undefined): string {
  if (!p) return notMeasured('Peers');
  const control = (s: PeerFigures) => p.servers.find((c) => c.pets === s.pets && c.key.startsWith('mock-again'));
  const rows = p.servers.map((s) => {
    const c = control(s);
    const failed = LOADS.reduce((sum, route) => sum + (s.routes[route]?.failures ?? 0), 0);
    return [
      `${s.label}, ${num(s.pets)} pets${failed > 0 ? ` (${num(failed)} non-2xx or errors)` : ''}`,
      `${num(s.startMs)} · ${told(s.startOverMock, c?.startOverMock)}`,
      `${num(s.peakRssBytes / 1e6)} · ${told(s.rssOverMock, c?.rssOverMock)}`,
      ...LOADS.map((route) => {
        const f = s.routes[route];
        const cf = c?.routes[route];
        return f
          ? `${num(f.rps)} · ${told(f.rpsOverMock, cf?.rpsOverMock)} · ${told(f.cpuOverMock, cf?.cpuOverMock)} · ${told(f.p99OverMock, cf?.p99OverMock)}`
          : 'n/a';
      }),
    ];
  });
  const answerRows = p.servers.map((s) => [
    `${s.label}, ${num(s.pets)} pets`,
    ...(['list', 'sold', 'get', 'create'] as const).map((route) => answered(s.answers[route])),
    s.seeded,
    `\`${s.command}\``,
  ]);
  const titles = LOADS.map((route) => ROUTE_TITLES[route]);
  return [
    `Peers, from \`${p.command}\` on ${p.generatedAt.slice(0, 16).replace('T', ' ')} UTC (load average ${p.loadAverage} at its start), each installed from the npm registry into the bench's temporary project (${Object.entries(
      p.versions,
    )
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}): the servers of each store size pinned to one CPU and loaded in turn in slices ${
      // Until the cycles came in (2026-11-29), neither the own slices nor the peers' warm-up reached the launch.
      p.cycles
        ? `of about ${p.sliceS} s (each server's slice sized from its own warm-up rate), ${p.durationS} s per route and launch after ${num(p.launchWarmup)} requests of the mixed load, each launch's ratios the medians of its cycles' ratios`
        : `of one size for every server (the median warm-up rate times ${p.sliceS} s), ${p.durationS} s per route and launch after 20,000 requests of the mixed load`
    }, ${p.statistic ?? 'mean'}s over ${p.launches} launches of fresh processes. Start: spawn to the first 200 on GET /pets/1, ms · over the mock's; memory: peak RSS at the end of a launch, MB · over the mock's; each load: req/s in its own slices · over the mock's · requests per CPU-second over the mock's · p99 over the mock's (above 1.00x is better for the first three, below for p99, start and memory). ≈: no further from 1.00x than the control (a second mock process) reads on the same figure: the method cannot tell it from the mock.`,
    '',
    table(['server', 'start ms', 'peak RSS MB', ...titles], rows),
    '',
    'What each answered to one request of each route before the loading (status, pets in a JSON array, body bytes), how it was seeded, and how it was started (K: the key, P: the port):',
    '',
    table(['server', ...titles.slice(0, 4), 'pets', 'command'], answerRows, [0, 5, 6]),
  ].join('\n');
}
