/**
 * The "where the time goes" table: the minimal server's CPU per request, what
 * each rung of the ladder adds to it, the measured mock, and the sum of the
 * rungs beside it, so a reader sees whether the ladder accounts for the mock.
 */

import { countingMethod } from './instructions.ts';
import { LADDER_LOADS } from './layers.ts';
import { notMeasured, num, ratio, table } from './markdown.ts';
import {
  type BenchResults,
  instructionsOf,
  type LayerFigures,
  LOAD_NAMES,
  type LoadName,
  launchStatistic,
  ROUTE_TITLES,
  TARGET_SIZES,
} from './report.ts';

const ROUTES = LADDER_LOADS;

const signed = (value: number): string =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(1)}` : 'n/a';

function row(layer: LayerFigures): string[] {
  return [
    `${layer.partOfMock ? '+ ' : ''}${layer.name}${layer.partOfMock ? '' : ' (not in the mock row)'}`,
    ...ROUTES.map((route) => {
      const c = layer.routes?.[route];
      return c ? `${signed(c.costUs)} (${signed(c.costRange[0])} to ${signed(c.costRange[1])})` : 'not available yet';
    }),
    layer.measuredAs ?? layer.notAvailable ?? '',
  ];
}

/** The table, from a run's throughput figures and layers. */
export function layerTable(r: BenchResults): string {
  const t = r.throughput;
  if (!t || !r.layers) return notMeasured('Where the time goes');
  const cpu = (key: string, route: LoadName) => t.routes[route]?.[key]?.cpuUsPerRequest ?? NaN;
  const rungs = r.layers.filter((l) => l.partOfMock);
  const sum = (route: LoadName) =>
    rungs.reduce((total, layer) => total + (layer.routes?.[route]?.costUs ?? 0), cpu('minimal', route));
  const mockLabel = t.servers.find((s) => s.key === 'mock')?.label ?? 'mock';
  const rows = [
    ['minimal node:http server', ...ROUTES.map((route) => num(cpu('minimal', route), 1)), 'the yardstick'],
    ...rungs.map(row),
    [`= ${mockLabel}`, ...ROUTES.map((route) => num(cpu('mock', route), 1)), 'measured'],
    [
      '(minimal + the rows above)',
      ...ROUTES.map((route) => num(sum(route), 1)),
      'the sum, to hold against the measured mock: the same, give or take noise',
    ],
    ...r.layers.filter((l) => !l.partOfMock).map(row),
  ];
  const each =
    r.throughput?.method === 'slices'
      ? `the ${launchStatistic(r.throughput)} of the per-launch differences${r.throughput.cycles ? ` (each the median of the launch's ${r.throughput.yardstick !== undefined ? 'slices' : 'cycles'}' differences)` : ''} (lowest to highest launch)`
      : 'the median of the per-round differences (lowest to highest round)';
  return [
    `Where the time goes: the server's CPU time per request in µs; for each cost, what it adds: ${each}`,
    '',
    table(['cost', ...ROUTES.map((route) => ROUTE_TITLES[route]), 'measured as'], rows, [0, 4]),
  ].join('\n');
}

const thousands = (value: number | undefined): string => num(value === undefined ? NaN : value);

/**
 * Instructions per request: the minimal server, what each rung of the ladder adds (the difference between the two
 * servers of the rung, which callgrind counts exactly), the mock; then the minimal server and the mock on every load
 * at each store size, with their ratio, which the targets hold.
 */
export function instructionTable(r: BenchResults): string {
  const i = r.instructions;
  if (!i) return notMeasured('Instructions per request');
  const of = (key: string, load: LoadName) => instructionsOf(r, key, load);
  const added = (layer: { with: string; over: string }, load: LoadName) => {
    const [w, o] = [of(layer.with, load), of(layer.over, load)];
    return w === undefined || o === undefined ? 'n/a' : `${w >= o ? '+' : ''}${num(w - o)}`;
  };
  const rungs = i.rungs;
  const ladder = [
    ['minimal node:http server', ...ROUTES.map((load) => thousands(of('minimal', load)))],
    ...rungs.map((layer) => [`+ ${layer.name}`, ...ROUTES.map((load) => added(layer, load))]),
    ['= mock (petstore-mock --quiet)', ...ROUTES.map((load) => thousands(of('mock', load)))],
  ];
  const loads = TARGET_SIZES.flatMap(({ pets, minimal, mock }) => {
    const count = pets.toLocaleString('en-US');
    return [
      [`minimal node:http server, ${count} pets`, ...LOAD_NAMES.map((load) => thousands(of(minimal, load)))],
      [`mock, ${count} pets`, ...LOAD_NAMES.map((load) => thousands(of(mock, load)))],
      [
        `minimal / mock, ${count} pets`,
        ...LOAD_NAMES.map((load) => ratio((of(minimal, load) ?? NaN) / (of(mock, load) ?? NaN))),
      ],
    ];
  });
  return [
    `Instructions per request, the server's main thread under callgrind: ${countingMethod(i)} after the same ${num(i.warmup)} requests of warm-up, one request at a time on one connection (the mixed load in whole cycles of 9); kernel time not counted. What each rung of the ladder adds, 50 pets:`,
    '',
    table(['cost', ...ROUTES.map((route) => ROUTE_TITLES[route])], ladder),
    '',
    'Every load, at 50 and 1,000 pets (the targets hold minimal / mock):',
    '',
    table(['server', ...LOAD_NAMES.map((load) => ROUTE_TITLES[load])], loads),
  ].join('\n');
}
