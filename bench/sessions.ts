/**
 * The sessions section (issue 47): what a request costs in a session beside one outside any, counted as the
 * instructions section counts (the mock's main thread under callgrind, one request at a time on one keep-alive
 * connection, V8's tier-up budget at a sixteenth, after the warm-up windows of 1,000 requests until they settle, as there),
 * and the memory 1,000 live sessions of 50 pets take. Servers of the installed package on 50 pets, each with one
 * session `bench`: requests outside it, outside it with a header as long as the session's (what one more header
 * costs any request, the yardstick of the header way), in it by URL, in it by header; with `--before DIR`, the mock
 * of another built tree (say main's before a change), requests outside any session.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  COUNTING_FLAGS,
  countingMethod,
  INSTRUCTION_COUNTS,
  type InstructionCounts,
  settledCount,
} from './instructions.ts';
import { notMeasured, num, table } from './markdown.ts';
import { spawnServer, waitForOutput } from './processes.ts';
import { ROUTE_REQUESTS, type RouteName } from './servers/index.ts';

const run = promisify(execFile);
const KEY = 'bench-key';
const ROUTES = ['list', 'get', 'create'] as const satisfies readonly RouteName[];
const TITLES: Record<(typeof ROUTES)[number], string> = {
  list: 'GET /v1/pets?limit=20',
  get: 'GET /v1/pets/1',
  create: 'POST /v1/pets',
};

/**
 * How a request reaches the mock: outside any session (`outsideHeader`: with a header as long as the session's, of
 * another name), in one by URL or by header; `before`: another tree's mock.
 */
type SessionWay = 'before' | 'outside' | 'byUrl' | 'outsideHeader' | 'byHeader';

/** Every {@link SessionWay}, in the order the table shows them. */
const WAYS: readonly SessionWay[] = ['before', 'outside', 'byUrl', 'outsideHeader', 'byHeader'];

/** What each way is compared with: by header with the same request outside, one header as long included. */
const BASE: Record<SessionWay, SessionWay[]> = {
  before: [],
  outside: ['before'],
  byUrl: ['outside'],
  outsideHeader: ['outside'],
  byHeader: ['outsideHeader', 'outside'],
};

/** What the sessions section measured. */
export interface SessionFigures {
  /** The command and time of the run that measured them (a section run alone may be merged into a full run's results). */
  command: string;
  generatedAt: string;
  counts: InstructionCounts;
  /** The tree counted as `before`, as given. */
  before?: string;
  /** Instructions per request, by way, then route. */
  perRequest: Partial<Record<SessionWay, Partial<Record<(typeof ROUTES)[number], number>>>>;
  /** What 1,000 live sessions of 50 pets each added, each having answered one listing. */
  memory: { sessions: number; petsEach: number; heapBytes: number; rssBytes: number };
}

/** Options for {@link measureSessions}. */
interface SessionBenchOptions {
  /** The dist/ of the mock measured (the installed package's). */
  dist: string;
  /** A built tree whose mock is counted as `before` (its dist/). */
  before?: string;
  /** Where callgrind files go; kept there when `keep` (for callgrind_annotate), else removed. */
  work: string;
  keep?: boolean;
  command: string;
  log: (line: string) => void;
}

/**
 * The server each count runs: a mock from the dist/ in argv[1] on 50 pets; with argv[2] `session`, one session
 * `bench` (a tree from before sessions takes no `sessions` option).
 */
const SERVER = `
const { startMockServer } = await import(process.argv[1] + '/mock/node/index.js');
// Idle keep-alive an hour: a callgrind dump on a loaded machine can outlast the default 5 s, and the server then
// closes the connection the next request is already on its way over (ECONNRESET).
const options = { port: 0, count: 50, apiKeys: ['${KEY}'], timeouts: { keepAliveMs: 3600000 } };
const petstore = await startMockServer(process.argv[2] === 'session' ? { ...options, sessions: { max: 10 } } : options);
if (process.argv[2] === 'session') petstore.session('bench');
process.stdout.write('at ' + petstore.url + '\\n');
`;

async function drive(
  base: string,
  route: (typeof ROUTES)[number],
  n: number,
  headers: Record<string, string>,
  agent: Agent,
) {
  const url = new URL(base);
  const r = ROUTE_REQUESTS[route];
  for (let i = 0; i < n; i++) {
    const status = await new Promise<number>((done, fail) => {
      const all: Record<string, string> = { authorization: `Bearer ${KEY}`, ...headers };
      if ('body' in r) all['content-type'] = 'application/json';
      const req = request(
        { host: url.hostname, port: url.port, path: `${url.pathname}${r.path}`, method: r.method, headers: all, agent },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      req.end('body' in r ? r.body : undefined);
    });
    if (status < 200 || status > 299) throw new Error(`${r.method} ${base}${r.path} answered ${status}`);
  }
}

/** Instructions per request of the mock in `dist` on each route, reached at `reach(url)` with `headers`. */
async function count(
  way: SessionWay,
  dist: string,
  reach: (url: string) => string,
  headers: Record<string, string>,
  o: SessionBenchOptions,
): Promise<Record<(typeof ROUTES)[number], number>> {
  const { warmup, window } = INSTRUCTION_COUNTS;
  const work = mkdtempSync(join(o.work, `sessions-${way}-`));
  const child = spawnServer({
    command: 'valgrind',
    args: [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(work, 'cg.%p')}`,
      process.execPath,
      ...COUNTING_FLAGS,
      '--input-type=module',
      '-e',
      SERVER,
      dist,
      way === 'before' ? 'none' : 'session',
    ],
    cwd: dist,
    maxLifetimeMs: 30 * 60_000,
  });
  try {
    const { match } = await waitForOutput(child, /at (http:\/\/\S+\/v1)\n/, 300_000);
    const base = reach(match[1]!);
    const pid = child.child.pid!;
    const mainThread = new RegExp(`^cg\\.${pid}\\.(\\d+)-01$`);
    const dump = async () => {
      await run('callgrind_control', ['--dump', String(pid)], { timeout: 120_000 });
      const dumps = readdirSync(work).flatMap((f) => {
        const m = mainThread.exec(f);
        return m ? [{ f, n: Number(m[1]) }] : [];
      });
      const last = dumps.sort((a, b) => b.n - a.n)[0];
      if (!last) throw new Error(`callgrind wrote no dump for ${way}`);
      const text = readFileSync(join(work, last.f), 'utf8');
      if (!o.keep) for (const f of readdirSync(work)) rmSync(join(work, f));
      const summary = /^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text);
      if (!summary) throw new Error(`no summary in ${last.f}`);
      return Number(summary[1]);
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const result = {} as Record<(typeof ROUTES)[number], number>;
    for (const route of ROUTES) await drive(base, route, warmup / ROUTES.length, headers, agent);
    for (const route of ROUTES) {
      await drive(base, route, 100, headers, agent);
      await dump();
      const { figure, counts } = await settledCount(async () => {
        await drive(base, route, window, headers, agent);
        return (await dump()) / window;
      }, INSTRUCTION_COUNTS);
      result[route] = Math.round(figure);
      o.log(`sessions ${way} ${route}: windows ${counts.map((c) => Math.round(c)).join(', ')}`);
    }
    agent.destroy();
    return result;
  } finally {
    child.child.kill('SIGKILL');
    if (!o.keep) rmSync(work, { recursive: true, force: true });
    else o.log(`sessions ${way}: callgrind files kept in ${work}`);
  }
}

/** Heap and resident bytes 1,000 live sessions of 50 pets each add, each having answered one listing (a child, --expose-gc). */
async function sessionMemory(dist: string): Promise<SessionFigures['memory']> {
  const code = `
const { createMockDispatcher } = await import(process.argv[1] + '/mock/undici/index.js');
const { fetch } = await import('undici');
const petstore = createMockDispatcher({ count: 50, sessions: { max: 1000 } });
await petstore.ready;
const headers = { authorization: 'Bearer petstore-dev-key' };
const measure = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage(); };
await fetch(petstore.url + '/pets', { dispatcher: petstore, headers });
const before = measure();
const held = [];
for (let i = 0; i < 1000; i++) {
  const s = petstore.session('s' + i);
  const r = await fetch(s.url + '/pets?limit=100', { dispatcher: petstore, headers });
  if ((await r.json()).length !== 50) throw new Error('not 50 pets');
  held.push(s);
}
const after = measure();
process.stdout.write(JSON.stringify({ sessions: held.length, petsEach: 50, heapBytes: after.heapUsed - before.heapUsed, rssBytes: after.rss - before.rss }));
`;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', code, dist], {
    cwd: dist,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as SessionFigures['memory'];
}

/** Counts every way (`before` only with a tree to count) and measures the memory of 1,000 sessions. */
export async function measureSessions(o: SessionBenchOptions): Promise<SessionFigures> {
  const generatedAt = new Date().toISOString();
  o.log('sessions: the memory of 1,000 live sessions');
  const memory = await sessionMemory(o.dist);
  o.log(`sessions: memory ${JSON.stringify(memory)}`);
  const root = (url: string) => url.slice(0, -'/v1'.length);
  const perRequest: SessionFigures['perRequest'] = {};
  if (o.before !== undefined) perRequest.before = await count('before', join(o.before, 'dist'), (u) => u, {}, o);
  perRequest.outside = await count('outside', o.dist, (u) => u, {}, o);
  perRequest.byUrl = await count('byUrl', o.dist, (u) => `${root(u)}/sessions/bench/v1`, {}, o);
  perRequest.outsideHeader = await count('outsideHeader', o.dist, (u) => u, { 'petstore-sessiox': 'bench' }, o);
  perRequest.byHeader = await count('byHeader', o.dist, (u) => u, { 'petstore-session': 'bench' }, o);
  return {
    command: o.command,
    generatedAt,
    counts: INSTRUCTION_COUNTS,
    ...(o.before === undefined ? {} : { before: o.before }),
    perRequest,
    memory,
  };
}

/** `+1.2 %` of `value` over `base`, or '' when either is missing. */
function over(value: number | undefined, base: number | undefined): string {
  if (value === undefined || base === undefined) return '';
  const change = ((value - base) / base) * 100;
  return ` (${change >= 0 ? '+' : ''}${num(change, 1)} %)`;
}

/** The section's table and memory line, as printed and as bench/README.md shows them. */
export function sessionsTable(f: SessionFigures | undefined): string {
  if (!f) return notMeasured('Sessions');
  const ways = WAYS.filter((w) => f.perRequest[w] !== undefined);
  const heading: Record<SessionWay, string> = {
    before: 'before (another tree)',
    outside: 'outside a session',
    byUrl: 'in a session, by URL',
    outsideHeader: 'outside, one header more',
    byHeader: 'in a session, by header',
  };
  const rows = ROUTES.map((route) => {
    const of = (w: SessionWay) => f.perRequest[w]?.[route];
    return [
      TITLES[route],
      ...ways.map((w) => {
        const base = BASE[w].map(of).find((n) => n !== undefined);
        return `${num(of(w))}${over(of(w), base)}`;
      }),
    ];
  });
  const m = f.memory;
  const mb = (bytes: number) => num(bytes / 1e6);
  return [
    `Sessions, from \`${f.command}\` on ${f.generatedAt.slice(0, 10)}: instructions per request, the mock's main thread under callgrind, ${countingMethod(f.counts)} after ${num(f.counts.warmup)} requests of warm-up, 50 pets, one session live (by URL: over outside; by header: over outside with one header as long, \`petstore-sessiox: bench\`, itself over outside${f.before ? `; outside: over \`before\`, the mock of ${f.before}` : ''})`,
    '',
    table(['request', ...ways.map((w) => heading[w])], rows),
    '',
    `${num(m.sessions)} live sessions of ${m.petsEach} pets each, each having answered a listing, add ${mb(m.heapBytes)} MB of heap (${num(m.heapBytes / m.sessions / 1e3)} kB each) and ${mb(m.rssBytes)} MB of resident memory.`,
  ].join('\n');
}
