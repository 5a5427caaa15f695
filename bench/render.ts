/**
 * Renders a run's results as Markdown: the tables (printed, and the marked
 * section of bench/README.md) and the short summary (the marked section of
 * README.md). Both come from the JSON alone, so a test can hold the READMEs
 * to bench/results/latest.json.
 */

import { notMeasured, num, ratio, table } from './markdown.ts';
import { peersTables } from './peers.ts';
import { instructionTable, layerTable } from './render-layers.ts';
import {
  type BenchResults,
  intervalPercent,
  LOAD_NAMES,
  launchStatistic,
  ROUTE_TITLES,
  TARGET_SIZES,
  type TargetCheck,
} from './report.ts';
import { sessionsTable } from './sessions.ts';
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
    .filter((server) => TARGET_SIZES.some((size) => size.minimal === server.key || size.mock === server.key))
    .map((server) => [
      server.label,
      ...ROUTES.map((route) => {
        const f = t.routes[route]?.[server.key];
        return f ? `${num(f.p50Ms, 2)} / ${num(f.p99Ms, 2)}` : 'n/a';
      }),
    ]);
  const titles = ROUTES.map((route) => ROUTE_TITLES[route]);
  const sliced = t.method === 'slices';
  const control = TARGET_SIZES.flatMap(({ pets, control: key }) => {
    const reads = ROUTES.flatMap((route) => {
      const f = t.routes[route]?.[key];
      return f
        ? [
            `${ROUTE_TITLES[route]} ${ratio(f.overMinimal)} (${ratio(f.overMinimalRange[0])} to ${ratio(f.overMinimalRange[1])}) / ${ratio(f.cpuOverMinimal)} (${ratio(f.cpuOverMinimalRange[0])} to ${ratio(f.cpuOverMinimalRange[1])})`,
          ]
        : [];
    });
    return reads.length > 0 ? [`${num(pets)} pets: ${reads.join('; ')}`] : [];
  });
  const stat = launchStatistic(t);
  const each = sliced ? [stat, 'launch'] : ['median', 'round'];
  const method = sliced
    ? `the servers of each store size pinned to one CPU, the load generator on the other, loaded in turn in slices of about ${s.sliceS} s (a fixed number of requests each); req/s in its own slices · req/s over the minimal server's (at the same number of pets) · requests per CPU-second over the minimal server's (CPU from /proc${t.cycles ? ' at the start of every slice' : ''})${t.yardstick === 'blocks' ? `; each server's slices in a block of its own, the minimal server's slice between every two of them (both run every other slice), each launch's ratios the medians of its slices' ratios, each slice over the minimal server's two around it${t.warmUpSlices ? `, the first ${t.warmUpSlices === 1 ? 'slice' : `${t.warmUpSlices} slices`} of each block a warm-up not read` : ''}${t.resetsBeforeBlocks ? ', both servers reset before each block of the loads that write' : ''}` : t.yardstick === 'between' ? "; the minimal server's slice between every two others', each launch's ratios the medians of its slices' ratios, each slice over the minimal server's two around it" : t.cycles ? "; each launch's ratios the medians of its cycles' ratios" : ''}; ${stat}s over ${s.launches} launches of fresh processes, started in the opposite order every other launch, each server loaded ${s.durationS} s per route after ${s.warmupS} s of warmup`
    : `req/s · req/s over the minimal server's (at the same number of pets) · requests per CPU-second over the minimal server's; medians of ${s.rounds} interleaved rounds of ${s.durationS} s after ${s.warmupS} s of warmup`;
  return [
    `Throughput, ${s.connections} connections: ${method}; the rungs of the ladder are loaded on three routes only`,
    '',
    table(['server', ...titles, 'command'], rows, [0, titles.length + 1]),
    '',
    ...(control.length > 0
      ? [
          `The control, the minimal server again in a process of its own, over the minimal server (the same code: what the method reads when nothing differs), req/s / per CPU-second, ${each[0]} (lowest to highest ${each[1]}): ${control.join('. ')}.`,
          '',
        ]
      : []),
    `Latency at ${s.connections} connections, p50 / p99 in ms (${sliced ? `${stat}s of the launches` : 'medians of the rounds'})`,
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

/** `3 of 12 targets met (2 not measured; 1 too close to call)`. */
export function targetCount(targets: TargetCheck[]): string {
  const missing = targets.filter((t) => t.met === null).length;
  const noisy = targets.filter((t) => t.roundsDisagree).length;
  const close = targets.filter((t) => t.tooClose).length;
  const notes = [
    missing ? `${missing} not measured` : '',
    noisy ? `${noisy} too noisy to call: rounds on both sides of the limit` : '',
    close
      ? `${close} too close to call: no further from the limit than the control from 1.00, or the limit inside the median's interval`
      : '',
  ].filter(Boolean);
  const met = targets.filter((t) => t.met && !t.tooClose).length;
  return `${met} of ${targets.length} targets met${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function verdict(t: TargetCheck): string {
  if (t.met === null) return 'not measured';
  if (t.tooClose) return `too close to call (${t.met ? 'above' : 'below'})`;
  return `${t.met ? 'yes' : 'NO'}${t.roundsDisagree ? ', rounds disagree' : ''}`;
}

/** `value` to two decimals, rounded by `round` (Math.floor or Math.ceil). */
function outward(value: number, round: (x: number) => number): string {
  return (round(Math.round(value * 1e6) / 1e4) / 100).toFixed(2);
}

function targetTable(r: BenchResults): string {
  const sliced = r.throughput?.method === 'slices';
  const percent = intervalPercent(r.targets);
  const intervals = percent !== undefined;
  const rows = r.targets.map((t) => [
    t.name,
    `${num(t.value, 2)}${t.range ? ` (${num(t.range[0], 2)} to ${num(t.range[1], 2)})` : ''}`,
    t.limit,
    ...(sliced ? [t.controlDistance === undefined ? '' : `±${num(t.controlDistance, 2)}`] : []),
    // Rounded outward: an interval that reaches under a limit never shows as starting on it.
    ...(intervals
      ? [t.interval ? `${outward(t.interval[0], Math.floor)} to ${outward(t.interval[1], Math.ceil)}` : '']
      : []),
    verdict(t),
  ]);
  const value = sliced
    ? `Value: the ${launchStatistic(r.throughput)} of the launches (lowest to highest launch). Control: how far the control read from 1.00 on the same load; a ratio no further than that from its limit is not called.${
        percent === undefined
          ? ''
          : ` Interval: where the median of the server's own launches lies with ${percent} % confidence (from the launches alone: the k-th lowest to the k-th highest); a limit inside it is not called either.`
      }`
    : 'Value: the median of the rounds (lowest to highest round).';
  return [
    `Targets: ${targetCount(r.targets)}. ${value}`,
    '',
    table(
      ['target', 'value', 'limit', ...(sliced ? ['control'] : []), ...(intervals ? ['interval'] : []), 'met'],
      rows,
    ),
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
    peersTables(results.peers),
    sessionsTable(results.sessions),
  ].join('\n\n');
}
