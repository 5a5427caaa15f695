/**
 * The startup section: each way of starting a server, from the installed
 * package, timed to its first answer, the ways interleaved (reversed every
 * other run). The mock is compared like for like: through npx with the
 * two-line server through npx, its bin with the two-line script under node,
 * in process with a two-line in-process server. Prism is context.
 */
import { join } from 'node:path';
import type { InstalledProject } from './install.ts';
import { TWO_LINE_BIN } from './install.ts';
import { prismArgs } from './layers.ts';
import { median } from './load.ts';
import { type ChildServer, freePort, ROOT, spawnServer, waitFor200 } from './processes.ts';
import type { StartupFigures } from './report.ts';

/** One way of starting a server. */
interface StartWay {
  key: string;
  label: string;
  command: string;
  baseline?: string;
  /** Starts it once; resolves with ms to the first answer and, in process, each phase's ms. */
  once(port: number): Promise<{ ms: number; phases?: Record<string, number> }>;
}

/** Options for {@link measureStartup}. */
export interface StartupOptions {
  project: InstalledProject;
  apiKey: string;
  runs: number;
  log: (line: string) => void;
}

async function firstAnswer(server: ChildServer, url: string, apiKey: string): Promise<number> {
  try {
    return await waitFor200(server, url, { authorization: `Bearer ${apiKey}` }, 30_000);
  } finally {
    await server.stop();
  }
}

async function inProcess(
  project: InstalledProject,
  script: string,
): Promise<{ ms: number; phases: Record<string, number> }> {
  const child = spawnServer({ command: process.execPath, args: [script], cwd: project.dir, maxLifetimeMs: 30_000 });
  // 'close', not 'exit': the whole of stdout has been read by then.
  const [code] = await Promise.all([child.exited, new Promise((resolve) => child.child.once('close', resolve))]);
  const out = child.stdout();
  if (code !== 0) throw new Error(`${script} exited ${code}: ${String(child)}`);
  const result = JSON.parse(out) as { status: number; total: number; phases: Record<string, number> };
  if (result.status !== 200) throw new Error(`${script}: first answer was ${result.status}`);
  return { ms: result.total, phases: result.phases };
}

/** The mock's bin and the two-line server's, through npx and under node: spawn to the first 200. */
function spawnedWays({ project, apiKey }: StartupOptions): StartWay[] {
  const mockArgs = (port: number) => ['--port', String(port), '--api-key', apiKey, '--quiet'];
  const url = (port: number) => `http://127.0.0.1:${port}/v1/pets?limit=1`;
  const spawned = (command: string, args: string[], port: number) =>
    firstAnswer(spawnServer({ command, args, cwd: project.dir }), url(port), apiKey).then((ms) => ({ ms }));
  const node = process.execPath;
  return [
    {
      key: 'npx-mock',
      label: 'npx petstore-mock',
      command: 'npx petstore-mock --port P --api-key K --quiet',
      baseline: 'npx-two-line',
      once: (port) => spawned('npx', ['petstore-mock', ...mockArgs(port)], port),
    },
    {
      key: 'npx-two-line',
      label: 'npx two-line server',
      command: `npx ${TWO_LINE_BIN} --port P`,
      once: (port) => spawned('npx', [TWO_LINE_BIN, '--port', String(port)], port),
    },
    {
      key: 'node-mock',
      label: "node, the mock's installed bin",
      command: `node ${project.mockBin} --port P --api-key K --quiet`,
      baseline: 'node-two-line',
      once: (port) => spawned(node, [project.mockBin, ...mockArgs(port)], port),
    },
    {
      key: 'node-two-line',
      label: 'node, two-line server',
      command: `node ${project.twoLineBin} --port P`,
      once: (port) => spawned(node, [project.twoLineBin, '--port', String(port)], port),
    },
  ];
}

/** In a fresh process, from the script's first line: the mock and a two-line server; then Prism, for context. */
function otherWays({ project, apiKey }: StartupOptions): StartWay[] {
  const prism = join(ROOT, 'node_modules', '.bin', 'prism');
  return [
    {
      key: 'inprocess-mock',
      label: 'in process: import ./mock + startMockServer + first fetch',
      command: `node ${project.inProcessMock}`,
      baseline: 'inprocess-two-line',
      once: () => inProcess(project, project.inProcessMock),
    },
    {
      key: 'inprocess-two-line',
      label: 'in process: two-line node:http server + first fetch',
      command: `node ${project.inProcessTwoLine}`,
      once: () => inProcess(project, project.inProcessTwoLine),
    },
    {
      key: 'prism',
      label: 'Prism 5 mock (context)',
      command: `prism ${prismArgs('P').join(' ')}`,
      once: (port) =>
        firstAnswer(
          spawnServer({ command: prism, args: prismArgs(port) }),
          `http://127.0.0.1:${port}/pets?limit=1`,
          apiKey,
        ).then((ms) => ({ ms })),
    },
  ];
}

/** Starts every way `runs` times, interleaved; medians. */
export async function measureStartup(options: StartupOptions): Promise<StartupFigures[]> {
  const all = [...spawnedWays(options), ...otherWays(options)];
  const runs = all.map((): { ms: number; phases?: Record<string, number> }[] => []);
  for (let run = 1; run <= options.runs; run++) {
    const order = run % 2 === 1 ? [...all.keys()] : [...all.keys()].reverse();
    for (const i of order) runs[i]!.push(await all[i]!.once(await freePort()));
    options.log(
      `startup run ${run}: ${all.map((w, i) => `${w.key} ${Math.round(runs[i]!.at(-1)!.ms)} ms`).join(', ')}`,
    );
  }
  return all.map((way, i) => {
    const phaseNames = Object.keys(runs[i]![0]!.phases ?? {});
    const figures: StartupFigures = {
      key: way.key,
      label: way.label,
      command: way.command,
      medianMs: median(runs[i]!.map((r) => r.ms)),
      runsMs: runs[i]!.map((r) => r.ms),
    };
    if (way.baseline) figures.baseline = way.baseline;
    if (phaseNames.length > 0)
      figures.phases = Object.fromEntries(phaseNames.map((p) => [p, median(runs[i]!.map((r) => r.phases![p]!))]));
    return figures;
  });
}
