/**
 * The "where the time goes" table: the minimal server's CPU per request, what
 * each rung of the ladder adds to it, the measured mock, and the sum of the
 * rungs beside it, so a reader sees whether the ladder accounts for the mock.
 */
import { notMeasured, num, table } from './markdown.ts';
import { type BenchResults, type LayerFigures, ROUTE_TITLES, type RouteName } from './report.ts';

const ROUTES: RouteName[] = ['list', 'get', 'create'];

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
  const cpu = (key: string, route: RouteName) => t.routes[route][key]?.cpuUsPerRequest ?? NaN;
  const rungs = r.layers.filter((l) => l.partOfMock);
  const sum = (route: RouteName) =>
    rungs.reduce((total, layer) => total + (layer.routes?.[route].costUs ?? 0), cpu('minimal', route));
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
  return [
    "Where the time goes: the server's CPU time per request in µs; for each cost, what it adds: the median of the per-round differences (lowest to highest round)",
    '',
    table(['cost', ...ROUTES.map((route) => ROUTE_TITLES[route]), 'measured as'], rows, [0, 4]),
  ].join('\n');
}
