/**
 * `npm run bench [-- --quick] [-- --only SECTIONS]`: in one run on this
 * machine, the mock against a minimal node:http server (throughput, latency,
 * and where its time goes), its start from the installed package against a
 * two-line server's, what a browser app carries for it, the mock at 1,000 to
 * 1,000,000 pets, and the conformance suite's wall time. Prints the tables and writes JSON; a full run also
 * rewrites the marked sections of bench/README.md and README.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { measureBrowserBundles } from './bundle.ts';
import { measureConformance } from './conformance.ts';
import { installProject } from './install.ts';
import { INSTRUCTION_COUNTS, measureInstructions } from './instructions.ts';
import { beforeBin, LAYERS } from './layers.ts';
import { measurePeers } from './peers.ts';
import { ROOT } from './processes.ts';
import { writeReadmes } from './readme.ts';
import { renderTables } from './render.ts';
import { type BenchResults, checkTargets } from './report.ts';
import { measureScale } from './scale.ts';
import { measureSessions } from './sessions.ts';
import { HELP, parseSettings, type Settings } from './settings.ts';
import { measureStartup } from './startup.ts';
import { measureStores } from './stores.ts';
import { measureThroughput } from './throughput.ts';

const API_KEY = 'bench-key';

const started = performance.now();

function log(line: string): void {
  process.stderr.write(`bench ${Math.round((performance.now() - started) / 1000)} s: ${line}\n`);
}

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

function machine(): Record<string, string | number> {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    nproc: availableParallelism(),
    memTotalGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    npm: execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim(),
    kernel: release(),
    loadAverage: loadavg()[0]!.toFixed(2),
    // Read by every Node process at start, before any JavaScript: part of every start measured here.
    nodeExtraCaCerts: process.env.NODE_EXTRA_CA_CERTS || 'unset',
    autocannon: versionOf('autocannon'),
    prism: versionOf('@stoplight/prism-cli'),
  };
}

async function measure(s: Settings, work: string): Promise<Omit<BenchResults, 'targets'>> {
  const { launches, durationS, sliceS, warmupS, connections, startupRuns, scaleRounds, scaleDurationS } = s;
  const results: Omit<BenchResults, 'targets'> = {
    generatedAt: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    quick: s.quick,
    sections: s.sections,
    machine: machine(),
    settings: { launches, durationS, sliceS, warmupS, connections, startupRuns, scaleRounds, scaleDurationS },
  };
  // Always first: npm pack runs the build, so every section measures the dist/ of this checkout.
  log('packing (and building) the package, installing it with a two-line server into a temporary project');
  const project = await installProject(work, API_KEY);
  results.tarball = project.tarball;
  const has = (section: Settings['sections'][number]) => s.sections.includes(section);
  const [apiKey, warmup] = [API_KEY, warmupS];
  if (has('throughput')) {
    log('throughput: starting the servers');
    Object.assign(
      results,
      await measureThroughput({
        ...s,
        duration: durationS,
        slice: sliceS,
        warmup,
        apiKey,
        layers: LAYERS,
        project,
        log,
        ...(s.before === undefined ? {} : { before: s.before }),
      }),
    );
  }
  if (has('instructions')) {
    const keep = s.keepCallgrind;
    if (keep) mkdirSync(keep, { recursive: true });
    results.instructions = {
      ...INSTRUCTION_COUNTS,
      rungs: LAYERS.filter((l) => l.partOfMock).map((l) => ({ name: l.name, with: l.with.key, over: l.over.key })),
      figures: await measureInstructions({
        project,
        apiKey,
        layers: LAYERS,
        work: keep ?? work,
        keep: keep !== undefined,
        log,
      }),
    };
  }
  if (has('startup')) results.startup = await measureStartup({ project, apiKey, runs: startupRuns, log });
  if (has('bundle')) {
    log('bundle: bundling the installed entries for a browser');
    results.bundle = await measureBrowserBundles(project.dir);
  }
  if (has('scale')) {
    const counts = s.scaleCounts;
    results.scale = await measureScale({ apiKey, counts, rounds: scaleRounds, duration: scaleDurationS, warmup, log });
  }
  if (has('stores')) {
    log('stores: memory, SQLite and PostgreSQL (a throwaway cluster)');
    results.stores = await measureStores({
      apiKey,
      rounds: scaleRounds,
      duration: durationS,
      warmup,
      connections,
      log,
    });
  }
  if (has('conformance')) results.conformance = await measureConformance({ project, apiKey, runs: startupRuns, log });
  if (has('peers'))
    results.peers = await measurePeers({
      ...s,
      launches: s.peerLaunches,
      duration: durationS,
      slice: sliceS,
      warmup,
      apiKey,
      project,
      log,
      command: results.command,
      loadAverage: String(results.machine.loadAverage),
    });
  if (has('sessions')) {
    const keep = s.keepCallgrind;
    if (keep) mkdirSync(keep, { recursive: true });
    results.sessions = await measureSessions({
      dist: join(project.dir, 'node_modules', 'petstore-toolkit', 'dist'),
      ...(s.before === undefined ? {} : { before: s.before }),
      work: keep ?? work,
      keep: keep !== undefined,
      command: results.command,
      log,
    });
  }
  return results;
}

async function main(): Promise<number> {
  let s: Settings | undefined;
  try {
    s = parseSettings(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\nTry --help.\n`);
    return 2;
  }
  if (!s) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (s.render) {
    const latest = join(ROOT, 'bench', 'results', 'latest.json');
    // The figures as measured; the targets checked again against today's limits (a limit may have changed since).
    const { targets: _measured, ...figures } = JSON.parse(readFileSync(latest, 'utf8')) as BenchResults;
    const results: BenchResults = { ...figures, targets: checkTargets(figures) };
    writeFileSync(latest, `${JSON.stringify(results, null, 2)}\n`);
    const written = [relative(process.cwd(), latest), ...new Set(writeReadmes(results, ROOT))];
    process.stdout.write(`Rewrote ${written.join(', ')} from the figures in ${relative(process.cwd(), latest)}\n`);
    return 0;
  }
  // Before the minute of packing and installing, not after: both sections that take the tree start its mock.
  if (s.before !== undefined && !existsSync(beforeBin(s.before))) {
    process.stderr.write(
      `bench: --before ${s.before}: no built mock at ${beforeBin(s.before)} (npm run build there)\n`,
    );
    return 2;
  }
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  // Ctrl-C or SIGTERM ends the bench through process.exit (bench/processes.ts), which skips the finally below: the
  // temporary project (hundreds of MB once the peers are in) goes on exit too.
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  process.once('exit', removeWork);
  try {
    const partial = await measure(s, work);
    const results: BenchResults = { ...partial, targets: checkTargets(partial) };
    mkdirSync(dirname(s.out), { recursive: true });
    writeFileSync(s.out, `${JSON.stringify(results, null, 2)}\n`);
    const written = [relative(process.cwd(), s.out), ...(s.publish ? new Set(writeReadmes(results, ROOT)) : [])];
    process.stdout.write(
      `${renderTables(results)}\n\nWrote ${written.join(', ')} (${Math.round((Date.now() - started) / 1000)} s)\n`,
    );
    return 0;
  } finally {
    process.removeListener('exit', removeWork);
    removeWork();
  }
}

process.exitCode = await main().catch((error: Error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`);
  return 1;
});
