/**
 * The conformance section: how soon the suite answers, from the installed
 * package, each figure beside a bare `node -e 0` start measured in the same
 * run (the ways interleaved, the order reversed every other run). The bin is
 * timed spawn to exit against the installed mock's bin on a port, with its
 * peak RSS; in process, a fresh script times from its first line the target
 * (the mock dispatcher made in process, or nothing for the port), then
 * `import('petstore-toolkit/conformance')` and the first fixed run, then a
 * `--generate 300` run, through the undici dispatcher and through the same port.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstalledProject } from './install.ts';
import { median } from './load.ts';
import { spawnServer, waitForOutput } from './processes.ts';
import type { ConformanceFigures, ConformanceWay } from './report.ts';

/** Options for {@link measureConformance}. */
export interface ConformanceOptions {
  project: InstalledProject;
  apiKey: string;
  runs: number;
  log: (line: string) => void;
}

/** Loaded with `--import` by every spawned way: writes the process's peak RSS (bytes) to the file the environment names. */
const RSS_PRELOAD = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));
`;

/**
 * In a fresh process, timed from its first line: the target made ready (the
 * mock dispatcher imported and made in this process; nothing for the port,
 * whose mock runs apart), the suite imported, its first fixed run, then a run
 * with 300 generated requests per operation.
 */
const IN_PROCESS_SUITE = `const t0 = performance.now();
const [mode, apiKey, portUrl] = process.argv.slice(2);
let target;
let close = async () => {};
if (mode === 'dispatcher') {
  const { createMockDispatcher } = await import('petstore-toolkit/undici');
  const dispatcher = createMockDispatcher({ apiKeys: [apiKey] });
  target = { baseUrl: dispatcher.url, dispatcher };
  close = () => dispatcher.close();
} else {
  target = { baseUrl: portUrl };
}
const reset = () => (portUrl ? fetch(new URL('/__control/reset', portUrl), { method: 'POST' }).then((r) => r.text()) : undefined);
const t1 = performance.now();
const { runConformance } = await import('petstore-toolkit/conformance');
const t2 = performance.now();
const first = await runConformance({ ...target, apiKey });
const t3 = performance.now();
await reset();
const t4 = performance.now();
const generated = await runConformance({ ...target, apiKey, generate: 300 });
const t5 = performance.now();
await close();
process.stdout.write(JSON.stringify({ ok: first.ok && generated.ok, target: t1 - t0, import: t2 - t1, firstRun: t3 - t2, generate300: t5 - t4 }));
`;

interface Once {
  ms: number;
  rssBytes?: number;
  phases?: Record<string, number>;
}

interface Way {
  key: string;
  label: string;
  command: string;
  once(): Promise<Once>;
}

async function spawned(
  project: InstalledProject,
  args: string[],
  expectExit: number,
  rssFile: string,
  what: string,
): Promise<Once> {
  rmSync(rssFile, { force: true });
  const child = spawnServer({
    command: process.execPath,
    args: ['--import', './rss-preload.mjs', ...args],
    cwd: project.dir,
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    maxLifetimeMs: 120_000,
  });
  const code = await child.exited;
  const ms = performance.now() - child.spawnedAt;
  if (code !== expectExit) throw new Error(`${what} exited ${code}, not ${expectExit}: ${String(child)}`);
  return { ms, rssBytes: Number(await readFile(rssFile, 'utf8')) };
}

async function inProcess(project: InstalledProject, args: string[], what: string): Promise<Once> {
  const child = spawnServer({ command: process.execPath, args: ['in-process-suite.mjs', ...args], cwd: project.dir });
  const [code] = await Promise.all([child.exited, new Promise((resolve) => child.child.once('close', resolve))]);
  if (code !== 0) throw new Error(`${what} exited ${code}: ${String(child)}`);
  const out = JSON.parse(child.stdout()) as {
    ok: boolean;
    target: number;
    import: number;
    firstRun: number;
    generate300: number;
  };
  if (!out.ok) throw new Error(`${what}: the suite did not pass against the mock`);
  const phases = {
    'the target': out.target,
    import: out.import,
    'first fixed run': out.firstRun,
    '--generate 300 run': out.generate300,
  };
  return { ms: out.target + out.import + out.firstRun, phases };
}

/** The mock's bin on a port (started once), the bare start, the bin and the in-process runs, `runs` times each, interleaved. */
export async function measureConformance(o: ConformanceOptions): Promise<ConformanceFigures> {
  const { project, apiKey } = o;
  writeFileSync(join(project.dir, 'rss-preload.mjs'), RSS_PRELOAD);
  writeFileSync(join(project.dir, 'in-process-suite.mjs'), IN_PROCESS_SUITE);
  const rssFile = join(project.dir, 'rss.out');
  const mock = spawnServer({
    command: process.execPath,
    args: [project.mockBin, '--port', '0', '--api-key', apiKey, '--quiet'],
    cwd: project.dir,
  });
  try {
    const { match } = await waitForOutput(mock, /at (http:\/\/\S+\/v1)\n/);
    const url = match[1]!;
    const reset = async (): Promise<void> => {
      const response = await fetch(new URL('/__control/reset', url), { method: 'POST' });
      await response.text();
    };
    const ways: Way[] = [
      {
        key: 'bare',
        label: 'bare node start (node -e 0)',
        command: 'node -e 0',
        once: () => spawned(project, ['-e', '0'], 0, rssFile, 'node -e 0'),
      },
      {
        key: 'bin',
        label: 'petstore-conformance bin against the mock on a port, spawn to exit',
        command: `node ${project.conformanceBin} --base-url http://127.0.0.1:PORT/v1 --api-key K`,
        once: async () => {
          await reset();
          return spawned(project, [project.conformanceBin, '--base-url', url, '--api-key', apiKey], 0, rssFile, 'bin');
        },
      },
      {
        key: 'dispatcher',
        label: 'in process, through the undici dispatcher: the mock dispatcher made + import + first fixed run',
        command: 'node in-process-suite.mjs dispatcher K',
        once: () => inProcess(project, ['dispatcher', apiKey], 'in process through the dispatcher'),
      },
      {
        key: 'port',
        label: 'in process, through the port: import + first fixed run',
        command: 'node in-process-suite.mjs port K http://127.0.0.1:PORT/v1',
        once: async () => {
          await reset();
          return inProcess(project, ['port', apiKey, url], 'in process through the port');
        },
      },
    ];
    const runs = ways.map((): Once[] => []);
    for (let run = 1; run <= o.runs; run++) {
      const order = run % 2 === 1 ? [...ways.keys()] : [...ways.keys()].reverse();
      for (const i of order) runs[i]!.push(await ways[i]!.once());
      o.log(
        `conformance run ${run}: ${ways.map((w, i) => `${w.key} ${Math.round(runs[i]!.at(-1)!.ms)} ms`).join(', ')}`,
      );
    }
    const bareMs = median(runs[0]!.map((r) => r.ms));
    const figures = ways.map((way, i): ConformanceWay => {
      const medianMs = median(runs[i]!.map((r) => r.ms));
      const row: ConformanceWay = {
        key: way.key,
        label: way.label,
        command: way.command,
        medianMs,
        runsMs: runs[i]!.map((r) => r.ms),
        overBare: medianMs / bareMs,
      };
      const rss = runs[i]!.flatMap((r) => (r.rssBytes === undefined ? [] : [r.rssBytes]));
      if (rss.length > 0) row.peakRssBytes = Math.max(...rss);
      const phaseNames = Object.keys(runs[i]![0]!.phases ?? {});
      if (phaseNames.length > 0)
        row.phases = Object.fromEntries(phaseNames.map((p) => [p, median(runs[i]!.map((r) => r.phases![p]!))]));
      return row;
    });
    const bin = figures.find((f) => f.key === 'bin')!;
    return {
      command: bin.command,
      wallMs: bin.medianMs,
      exitCode: 0,
      ways: figures,
    };
  } finally {
    await mock.stop();
  }
}
