/**
 * Renders a run's results as Markdown: the tables (printed, and the marked
 * section of bench/README.md) and the short summary (the marked section of
 * README.md). Both come from the JSON alone, so a test can hold the READMEs
 * to bench/results/latest.json.
 */

import { MINIMAL_AGAIN } from './layers.ts';
import { notMeasured, num, ratio, table } from './markdown.ts';
import { instructionTable, layerTable } from './render-layers.ts';
import { type BenchResults, LOAD_NAMES, ROUTE_TITLES, type TargetCheck } from './report.ts';
import { storesTable } from './stores.ts';

const ROUTES = LOAD_NAMES;

function header(r: BenchResults): string {
  const m = r.machine;
  const when = `${r.generatedAt.slice(0, 16).replace('T', ' ')} UTC`;
  return [
    `Run: \`${r.command}\` on ${when}${r.quick ? ' (quick: one short round, not for publishing)' : ''}; sections: ${r.sections.join(', ')}.`,
    `Machine: ${m.cpuModel}, ${m.nproc} CPUs shared with other work, ${m.memTotalGiB} GiB; Node ${m.node}, npm ${m.npm}, Linux ${m.kernel}; load average ${m.loadAverage} when the run started; NODE_EXTRA_CA_CERTS ${m.nodeExtraCaCerts === 'unset' ? 'unset' : 'set'}; autocannon ${m.autocannon}.`,
  ].join('\n');
}

function throughputTables(r: BenchResults): string {
  const t = r.throughput;
  const s = r.settings;
  if (!t) return notMeasured('Throughput');
  const failed = (key: string) => ROUTES.reduce((sum, route) => sum + (t.routes[route]?.[key]?.failures ?? 0), 0);
  const rows = t.servers.map((server) => [
    server.label + (failed(server.key) > 0 ? ` (${failed(server.key)} non-2xx or errors!)` : ''),
    ...ROUTES.map((route) => {
      const f = t.routes[route]?.[server.key];
      return f ? `${num(f.rps)} · ${ratio(f.overMinimal)} · ${ratio(f.cpuOverMinimal)}` : 'not loaded';
    }),
    `\`${server.command}\``,
  ]);
  const latency = t.servers
    .filter((server) => ['minimal', 'mock', 'minimal-1000', 'mock-1000'].includes(server.key))
    .map((server) => [
      server.label,
      ...ROUTES.map((route) => {
        const f = t.routes[route]?.[server.key];
        return f ? `${num(f.p50Ms, 2)} / ${num(f.p99Ms, 2)}` : 'n/a';
      }),
    ]);
  const titles = ROUTES.map((route) => ROUTE_TITLES[route]);
  const control = ROUTES.flatMap((route) => {
    const f = t.routes[route]?.[MINIMAL_AGAIN.key];
    return f
      ? [
          `${ROUTE_TITLES[route]} ${ratio(f.overMinimal)} (${ratio(f.overMinimalRange[0])} to ${ratio(f.overMinimalRange[1])}) / ${ratio(f.cpuOverMinimal)} (${ratio(f.cpuOverMinimalRange[0])} to ${ratio(f.cpuOverMinimalRange[1])})`,
        ]
      : [];
  });
  return [
    `Throughput, ${s.connections} connections: req/s · req/s over the minimal server's (at the same number of pets) · requests per CPU-second over the minimal server's; medians of ${s.rounds} interleaved rounds of ${s.durationS} s after ${s.warmupS} s of warmup; the rungs of the ladder are loaded on three routes only`,
    '',
    table(['server', ...titles, 'command'], rows, [0, titles.length + 1]),
    '',
    ...(control.length > 0
      ? [
          `The control, the minimal server again in a process of its own, over the minimal server (the same code: what the method reads when nothing differs), req/s / per CPU-second, median (lowest to highest round): ${control.join('; ')}.`,
          '',
        ]
      : []),
    `Latency at ${s.connections} connections, p50 / p99 in ms (medians of the rounds)`,
    '',
    table(['server', ...titles], latency),
  ].join('\n');
}

function startupTable(r: BenchResults): string {
  if (!r.startup) return notMeasured('Startup');
  const rows = r.startup.map((s) => {
    const base = r.startup!.find((b) => b.key === s.baseline);
    const phases = s.phases
      ? ` (${Object.entries(s.phases)
          .map(([name, ms]) => `${name} ${num(ms)}`)
          .join(' + ')})`
      : '';
    return [
      s.label,
      `${num(s.medianMs)}${phases}`,
      base ? `${ratio(s.medianMs / base.medianMs)} ${base.label}` : '',
      `\`${s.command}\``,
    ];
  });
  return [
    `Startup from the installed package${r.tarball ? ` (tarball ${num(r.tarball.bytes / 1000)} kB, ${r.tarball.files} files)` : ''}, ms to the first answer (median of ${r.settings.startupRuns} interleaved runs; spawn to first 200, or, in process, from the script's first line)`,
    '',
    table(['how', 'median ms', 'like for like', 'command'], rows, [0, 3]),
  ].join('\n');
}

function bundleTable(r: BenchResults): string {
  if (!r.bundle) return notMeasured('Browser bundle');
  const kB = (bytes: number) => num(bytes / 1000, 1);
  // Runs before dynamic imports were split off have no on-demand figure: they render as they were published.
  const split = r.bundle.some((b) => b.lazyMinifiedBytes !== undefined);
  const rows = r.bundle.map((b) => [
    `\`${b.entry}\``,
    kB(b.minifiedBytes),
    kB(b.gzippedBytes),
    ...(split ? [kB(b.lazyMinifiedBytes ?? 0)] : []),
    b.fakerLocales.join(', '),
    b.largest
      .slice(0, 3)
      .map((input) => `${input.path.replace(/^.*node_modules\//, '')} ${kB(input.bytes)}`)
      .join(', '),
  ]);
  if (!split)
    return [
      "Browser bundle: what a browser app carries for each of the installed package's entries (esbuild: platform browser, ESM, minified, tree-shaken; msw left to the app), in kB",
      '',
      table(['entry', 'minified', 'gzipped', 'faker locales', 'largest inputs, minified'], rows, [0, 3, 4]),
    ].join('\n');
  return [
    "Browser bundle: what a browser app carries for each of the installed package's entries (esbuild: platform browser, ESM, minified, tree-shaken, dynamic imports split off as an app's bundler does; msw left to the app), in kB: the first load, and what only another seed or count loads (faker)",
    '',
    table(
      ['entry', 'first load, minified', 'gzipped', 'on demand, minified', 'faker locales', 'largest inputs, minified'],
      rows,
      [0, 4, 5],
    ),
  ].join('\n');
}

function scaleTable(r: BenchResults): string {
  if (!r.scale) return notMeasured('Scale');
  const base = r.scale.find((s) => s.count === 1_000);
  const query = (p50: number, p99: number, cpu: number, baseCpu: number | undefined) => [
    `${num(p50, 3)} / ${num(p99, 3)}`,
    num(cpu, 1),
    ratio(baseCpu === undefined ? NaN : cpu / baseCpu),
  ];
  const rows = r.scale.map((s) => [
    num(s.count),
    num(s.listenMs),
    s.rssBytes === undefined ? 'n/a' : num(s.rssBytes / 1e6),
    ...query(s.soldP50Ms, s.soldP99Ms, s.soldCpuUs, base?.soldCpuUs),
    ...query(s.allP50Ms, s.allP99Ms, s.allCpuUs, base?.allCpuUs),
  ]);
  const cells = (q: string) => [`${q} p50 / p99 ms`, 'CPU µs', 'x'];
  return [
    `Scale, one connection, ${r.settings.scaleRounds} interleaved rounds (latency: lowest p50 / median p99 of the rounds; the server's CPU per request: median; x: CPU over that at 1,000 pets)`,
    '',
    table(
      ['pets', 'spawn to listening ms', 'RSS MB', ...cells('?status=sold&limit=100'), ...cells('?limit=100')],
      rows,
    ),
  ].join('\n');
}

function conformanceLine(r: BenchResults): string {
  const c = r.conformance;
  if (!c) return notMeasured('Conformance suite against the mock');
  if (!c.ways)
    return `Conformance suite against the mock: ${num(c.wallMs)} ms, spawn to exit (exit code ${c.exitCode}): \`${c.command}\``;
  const rows = c.ways.map((w) => [
    w.label,
    num(w.medianMs),
    ratio(w.overBare),
    w.peakRssBytes === undefined ? '' : num(w.peakRssBytes / 1e6),
    w.phases
      ? Object.entries(w.phases)
          .map(([p, ms]) => `${p} ${num(ms)}`)
          .join(', ')
      : '',
    `\`${w.command}\``,
  ]);
  return [
    `The suite's start, from the installed package, ${r.settings.startupRuns} interleaved runs (medians; x: over the bare node start of the same run; in process, the clock starts at the script's first line; ms is all but the --generate run)`,
    '',
    table(['way', 'ms', 'x bare start', 'peak RSS MB', 'in-process phases, ms', 'command'], rows),
  ].join('\n');
}

/** `3 of 12 targets met (2 not measured; 1 too noisy to call)`. */
export function targetCount(targets: TargetCheck[]): string {
  const missing = targets.filter((t) => t.met === null).length;
  const noisy = targets.filter((t) => t.roundsDisagree).length;
  const notes = [
    missing ? `${missing} not measured` : '',
    noisy ? `${noisy} too noisy to call: rounds on both sides of the limit` : '',
  ].filter(Boolean);
  return `${targets.filter((t) => t.met).length} of ${targets.length} targets met${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function targetTable(r: BenchResults): string {
  const rows = r.targets.map((t) => [
    t.name,
    `${num(t.value, 2)}${t.range ? ` (${num(t.range[0], 2)} to ${num(t.range[1], 2)})` : ''}`,
    t.limit,
    t.met === null ? 'not measured' : `${t.met ? 'yes' : 'NO'}${t.roundsDisagree ? ', rounds disagree' : ''}`,
  ]);
  return [
    `Targets: ${targetCount(r.targets)}. Value: the median of the rounds (lowest to highest round).`,
    '',
    table(['target', 'value', 'limit', 'met'], rows),
  ].join('\n');
}

/** Every table of a run, as printed and as bench/README.md shows it. */
export function renderTables(results: BenchResults): string {
  return [
    header(results),
    targetTable(results),
    throughputTables(results),
    layerTable(results),
    instructionTable(results),
    startupTable(results),
    bundleTable(results),
    scaleTable(results),
    storesTable(results.stores, Number(results.settings.connections), Number(results.settings.scaleRounds)),
    conformanceLine(results),
  ].join('\n\n');
}
