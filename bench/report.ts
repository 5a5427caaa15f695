/**
 * The bench's results: their JSON shape, the issue's targets checked against
 * them, and the plain-text tables printed at the end of a run.
 */

/** Throughput and latency of one route on one server (medians over rounds). */
export interface RouteFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx responses and errors, summed over rounds. */
  failures: number;
}

/** The route names the bench loads. */
export type RouteName = 'list' | 'create' | 'get';

/** Servers compared in the throughput section. */
export type ServerName = 'mock' | 'bare' | 'prism';

/** Startup of one way of starting a server. */
export interface StartupFigures {
  label: string;
  command: string;
  /** Held to the target; the floors and the slower ways are reference points. */
  target: boolean;
  /** The environment it was started in ('' as the machine is set up); compared with the Prism row of the same group. */
  group: string;
  medianMs: number;
  runsMs: number[];
}

/** The mock at one store size. */
export interface ScaleFigures {
  count: number;
  /** Spawn to "listening" (process start plus seeding), ms. */
  listenMs: number;
  rssBytes: number | undefined;
  soldP50Ms: number;
  soldP99Ms: number;
  allP50Ms: number;
  allP99Ms: number;
}

/** The conformance suite's wall time, when it could be measured. */
export type ConformanceFigures =
  | { measured: true; command: string; wallMs: number; exitCode: number | string }
  | { measured: false; reason: string };

/** One target of issue 5 and whether this run met it. */
export interface TargetCheck {
  name: string;
  value: number;
  limit: string;
  met: boolean;
}

/** Everything one run produced (written as JSON). */
export interface BenchResults {
  generatedAt: string;
  command: string;
  quick: boolean;
  machine: Record<string, string | number>;
  settings: Record<string, number | string>;
  throughput: Record<
    RouteName,
    Record<ServerName, RouteFigures> & { ratios: { mockOverBare: number; mockOverPrism: number } }
  >;
  startup: StartupFigures[];
  scale: ScaleFigures[];
  conformance: ConformanceFigures;
  targets: TargetCheck[];
}

const ROUTE_TITLES: Record<RouteName, string> = {
  list: 'GET /v1/pets?limit=20',
  create: 'POST /v1/pets',
  get: 'GET /v1/pets/{id}',
};

/** The Prism row a startup row is compared with: Prism started in the same environment. */
function startupBaseline(startup: StartupFigures[], row: StartupFigures): StartupFigures | undefined {
  return startup.find((s) => s.label === 'prism' && s.group === row.group);
}

/** Checks the figures against the targets of issue 5. */
export function checkTargets(results: Omit<BenchResults, 'targets'>): TargetCheck[] {
  const rows = new Set(results.startup.map((s) => `${s.group}\0${s.label}`));
  if (rows.size !== results.startup.length)
    throw new Error('two startup rows share a label and a group: their runs would be mixed');
  const checks: TargetCheck[] = [];
  const add = (name: string, value: number, limit: string, met: boolean): void =>
    void checks.push({ name, value, limit, met });
  const t = results.throughput;
  add('list: mock/bare req/s', t.list.ratios.mockOverBare, '>= 0.6', t.list.ratios.mockOverBare >= 0.6);
  add('list: mock/prism req/s', t.list.ratios.mockOverPrism, '>= 10', t.list.ratios.mockOverPrism >= 10);
  add('list: mock p99 at 32 connections (ms)', t.list.mock.p99Ms, '<= 5', t.list.mock.p99Ms <= 5);
  add('create: mock/bare req/s', t.create.ratios.mockOverBare, '>= 0.6', t.create.ratios.mockOverBare >= 0.6);
  add('get: mock/bare req/s', t.get.ratios.mockOverBare, '>= 0.6', t.get.ratios.mockOverBare >= 0.6);
  for (const start of results.startup) {
    const prism = startupBaseline(results.startup, start);
    if (!start.target || !prism) continue;
    const ratio = start.medianMs / prism.medianMs;
    add(`startup: ${start.label}/prism${start.group ? `, ${start.group}` : ''}`, ratio, '<= 0.25', ratio <= 0.25);
  }
  const small = results.scale.find((s) => s.count === 1_000);
  const big = results.scale.find((s) => s.count === 1_000_000);
  if (big) {
    const mb = (big.rssBytes ?? NaN) / 2 ** 20;
    add('1M pets: RSS (MiB)', mb, '<= 500', mb <= 500);
    add('1M pets: spawn to listening, incl. seeding (s)', big.listenMs / 1000, '<= 10', big.listenMs <= 10_000);
    if (small) {
      const sold = big.soldP50Ms / small.soldP50Ms;
      const all = big.allP50Ms / small.allP50Ms;
      add('1M/1K: p50 of ?status=sold&limit=100', sold, '<= 1.5', sold <= 1.5);
      add('1M/1K: p50 of ?limit=100', all, '<= 1.5', all <= 1.5);
    }
  }
  return checks;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

const num = (value: number, digits = 0): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');

/** Renders the results as Markdown tables (printed, and pasted into bench/README.md). */
export function renderTables(results: BenchResults): string {
  const out: string[] = [];
  const rows: string[][] = [];
  for (const route of Object.keys(ROUTE_TITLES) as RouteName[]) {
    const r = results.throughput[route];
    const failures = r.mock.failures + r.bare.failures + r.prism.failures;
    rows.push([
      ROUTE_TITLES[route] + (failures > 0 ? ` (${failures} non-2xx/errors!)` : ''),
      num(r.mock.rps),
      num(r.bare.rps),
      num(r.prism.rps),
      ratio(r.ratios.mockOverBare),
      ratio(r.ratios.mockOverPrism),
      `${num(r.mock.p50Ms, 2)} / ${num(r.mock.p99Ms, 2)}`,
      `${num(r.bare.p50Ms, 2)} / ${num(r.bare.p99Ms, 2)}`,
      `${num(r.prism.p50Ms, 2)} / ${num(r.prism.p99Ms, 2)}`,
    ]);
  }
  out.push(
    `Throughput, ${results.settings.connections} connections (req/s and latency p50 / p99 in ms: medians of ${results.settings.rounds} rounds; ratios: median of the per-round ratios)`,
    '',
    table(['route', 'mock', 'bare', 'prism', 'mock/bare', 'mock/prism', 'mock ms', 'bare ms', 'prism ms'], rows),
  );
  out.push(
    '',
    `Startup, spawn to first 200 (median of ${results.settings.startupRuns}; vs prism: against Prism started in the same environment)`,
    '',
    table(
      ['how', 'median ms', 'vs prism', 'command'],
      results.startup.map((s) => [
        s.group ? `${s.label}, ${s.group}` : s.label,
        num(s.medianMs),
        ratio(s.medianMs / (startupBaseline(results.startup, s)?.medianMs ?? NaN)),
        `\`${s.command}\``,
      ]),
    ),
  );
  const base = results.scale.find((s) => s.count === 1_000);
  out.push(
    '',
    `Scale, one connection (latency in ms: lowest p50 / median p99 of ${results.settings.scaleRounds} interleaved rounds; x = p50 against 1,000 pets)`,
    '',
    table(
      ['pets', 'spawn to listening ms', 'RSS MiB', '?status=sold&limit=100', 'x', '?limit=100', 'x'],
      results.scale.map((s) => [
        num(s.count),
        num(s.listenMs),
        s.rssBytes === undefined ? 'n/a' : num(s.rssBytes / 2 ** 20),
        `${num(s.soldP50Ms, 3)} / ${num(s.soldP99Ms, 3)}`,
        base ? ratio(s.soldP50Ms / base.soldP50Ms) : 'n/a',
        `${num(s.allP50Ms, 3)} / ${num(s.allP99Ms, 3)}`,
        base ? ratio(s.allP50Ms / base.allP50Ms) : 'n/a',
      ]),
    ),
  );
  const c = results.conformance;
  out.push(
    '',
    'Conformance suite against the mock',
    '',
    c.measured
      ? `${num(c.wallMs)} ms wall time, spawn to exit (exit code ${c.exitCode}): \`${c.command}\``
      : `NOT MEASURED: ${c.reason}`,
  );
  out.push(
    '',
    'Targets (issue 5)',
    '',
    table(
      ['target', 'value', 'limit', 'met'],
      results.targets.map((t) => [t.name, num(t.value, 2), t.limit, t.met ? 'yes' : 'NO']),
    ),
  );
  return out.join('\n');
}
