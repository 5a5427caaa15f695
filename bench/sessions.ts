/**
 * What sessions cost (issue 47), measured as the instructions section measures (bench/instructions.ts): the mock's
 * main thread under callgrind, one request at a time on one keep-alive connection, V8's tier-up budget at a
 * sixteenth, after a warm-up the least of 3 to 8 windows of 500 requests per request. Three servers on 50 pets:
 * a build of another tree (`--before DIR`, say main's, with no sessions), this tree outside any session, and this
 * tree inside one (by URL, and by header). Then the memory of 1,000 live sessions of 50 pets each (heap after a
 * full collection, in process). `npx tsx bench/sessions.ts --before DIR [--only PARTS]
 * [--out FILE]`; both trees built (dist/).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { spawnServer, waitForOutput } from './processes.ts';
import { ROUTE_REQUESTS } from './servers/index.ts';

const run = promisify(execFile);
const KEY = 'bench-key';
const ROUTES = ['list', 'get', 'create'] as const;
const WARMUP = 1_500;
const WINDOW = 500;

/** The server each count runs: a mock from `dist` on 50 pets (seed default), with one session `bench` when it can. */
const SERVER = `
const { startMockServer } = await import(process.argv[1] + '/mock/node/index.js');
const options = { port: 0, count: 50, apiKeys: ['${KEY}'] };
const petstore = await startMockServer(process.argv[2] === 'none' ? options : { ...options, sessions: { max: 10 } });
if (process.argv[2] !== 'none') petstore.session('bench');
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

/** Instructions per request of the mock from `dist` on each route, reached at `reach(url)` with `headers`. */
async function count(
  name: string,
  dist: string,
  sessions: boolean,
  reach: (url: string) => string,
  headers: Record<string, string>,
): Promise<Record<string, number>> {
  const work = mkdtempSync(join(tmpdir(), 'bench-sessions-'));
  const child = spawnServer({
    command: 'valgrind',
    args: [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(work, 'cg.%p')}`,
      process.execPath,
      '--interrupt-budget=4096',
      '--input-type=module',
      '-e',
      SERVER,
      dist,
      sessions ? 'bench' : 'none',
    ],
    cwd: dist,
    maxLifetimeMs: 30 * 60_000,
  });
  try {
    const { match } = await waitForOutput(child, /at (http:\/\/\S+\/v1)\n/, 300_000);
    const base = reach(match[1]!);
    const pid = child.child.pid!;
    const dump = async () => {
      await run('callgrind_control', ['--dump', String(pid)], { timeout: 120_000 });
      const files = readdirSync(work).filter((f) => new RegExp(`^cg\\.${pid}\\.\\d+-01$`).test(f));
      const last = files.sort(
        (a, b) => Number(b.split('.')[2]!.split('-')[0]) - Number(a.split('.')[2]!.split('-')[0]),
      )[0]!;
      const text = readFileSync(join(work, last), 'utf8');
      for (const f of readdirSync(work)) rmSync(join(work, f));
      return Number((/^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text))![1]);
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const result: Record<string, number> = {};
    for (const route of ROUTES) await drive(base, route, WARMUP / ROUTES.length, headers, agent);
    for (const route of ROUTES) {
      await drive(base, route, 100, headers, agent);
      await dump();
      const counts: number[] = [];
      const falling = () => counts.at(-1)! < 0.99 * Math.min(...counts.slice(0, -1));
      while (counts.length < 3 || (counts.length < 8 && falling())) {
        await drive(base, route, WINDOW, headers, agent);
        counts.push((await dump()) / WINDOW);
      }
      result[route] = Math.round(Math.min(...counts));
      console.error(`${name} ${route}: windows ${counts.map((c) => Math.round(c)).join(', ')}`);
    }
    agent.destroy();
    return result;
  } finally {
    child.child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
}

/** Heap bytes 1,000 live sessions of 50 pets each take, each having answered one listing, in a child with --expose-gc. */
async function sessionMemory(dist: string): Promise<{ sessions: number; heapBytes: number; perSession: number }> {
  const code = `
const { createMockDispatcher } = await import(process.argv[1] + '/mock/undici/index.js');
const { fetch } = await import('undici');
const petstore = createMockDispatcher({ count: 50, sessions: { max: 1000 } });
await petstore.ready;
const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
await fetch(petstore.url + '/pets', { dispatcher: petstore, headers: { authorization: 'Bearer petstore-dev-key' } });
const before = heap();
const held = [];
for (let i = 0; i < 1000; i++) {
  const s = petstore.session('s' + i);
  const r = await fetch(s.url + '/pets?limit=100', { dispatcher: petstore, headers: { authorization: 'Bearer petstore-dev-key' } });
  if ((await r.json()).length !== 50) throw new Error('not 50 pets');
  held.push(s);
}
const after = heap();
process.stdout.write(JSON.stringify({ sessions: held.length, heapBytes: after - before }));
`;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', code, dist], {
    cwd: dist,
    maxBuffer: 1 << 20,
  });
  const parsed = JSON.parse(stdout) as { sessions: number; heapBytes: number };
  console.error(`memory: ${JSON.stringify(parsed)}`);
  return { ...parsed, perSession: Math.round(parsed.heapBytes / parsed.sessions) };
}

const { values } = parseArgs({
  options: { before: { type: 'string' }, out: { type: 'string' }, only: { type: 'string' } },
});
/** The parts to run (`--only memory,before,outside,byUrl,byHeader`; default all). */
const only = new Set(values.only?.split(',') ?? ['memory', 'before', 'outside', 'byUrl', 'byHeader']);
if (values.before === undefined) throw new Error('--before DIR: a built tree to compare with (its dist/)');
const here = resolve(import.meta.dirname, '..', 'dist');
const before = resolve(values.before, 'dist');
const root = (url: string) => url.slice(0, -'/v1'.length);
const result = {
  memory: only.has('memory') ? await sessionMemory(here) : undefined,
  before: only.has('before') ? await count('before', before, false, (u) => u, {}) : undefined,
  outside: only.has('outside') ? await count('outside', here, true, (u) => u, {}) : undefined,
  byUrl: only.has('byUrl') ? await count('byUrl', here, true, (u) => `${root(u)}/sessions/bench/v1`, {}) : undefined,
  byHeader: only.has('byHeader')
    ? await count('byHeader', here, true, (u) => u, { 'petstore-session': 'bench' })
    : undefined,
};
const text = JSON.stringify(result, null, 2);
if (values.out) writeFileSync(values.out, `${text}\n`);
console.log(text);
