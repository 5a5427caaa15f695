/** `npm run bench` options: how long and how often each section measures, what it measures, where it writes. */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './processes.ts';

/** The sections of a run, in the order they run. */
export const SECTION_NAMES = [
  'throughput',
  'instructions',
  'startup',
  'bundle',
  'scale',
  'stores',
  'conformance',
  'peers',
  'sessions',
] as const;

/** One of {@link SECTION_NAMES}. */
export type Section = (typeof SECTION_NAMES)[number];

/** What one run does. */
export interface Settings {
  quick: boolean;
  sections: Section[];
  /** Throughput: launches of fresh server processes. */
  launches: number;
  /** Peers: launches of fresh server processes (each starts Prism, Mockoon and json-server, seconds apiece). */
  peerLaunches: number;
  /** Throughput: seconds of load per server, route and launch. */
  durationS: number;
  /** Throughput: about how long one server's slice lasts, s; short, so that the machine's drift cancels between slices. */
  sliceS: number;
  warmupS: number;
  connections: number;
  startupRuns: number;
  scaleRounds: number;
  scaleDurationS: number;
  scaleCounts: number[];
  /** Where the instructions and sessions sections leave the mock's callgrind files, for callgrind_annotate (default: removed). */
  keepCallgrind?: string;
  /** A built tree whose mock the throughput section loads and the sessions section counts too, as `before`. */
  before?: string;
  /** Where the JSON goes. */
  out: string;
  /** A full run writes latest.json and rewrites the READMEs' marked sections; no other run does. */
  publish: boolean;
  /** Measure nothing: rewrite the marked sections from bench/results/latest.json (after a change to the renderer). */
  render: boolean;
}

/** The `--help` text. */
export const HELP = `Usage: npm run bench -- [--quick] [--only SECTION,...] [--out FILE]

  --quick        two short launches, one short round of the other sections
  --only LIST    only these sections: ${SECTION_NAMES.join(', ')}
  --out FILE     where the JSON goes (default: bench/results/quick.tmp)
  --keep-callgrind DIR
                 leave the instructions and sessions sections' callgrind files in DIR
  --launches N   throughput: launches of fresh processes (default 8; 2 with --quick): the
                 interval of each median narrows with their square root
  --before DIR   the mock of this built tree (DIR/dist) too, as the cost before a change:
                 the throughput section loads it beside this one at each size (and prints
                 this one over it), the sessions section counts it
  --render       measure nothing: check the targets of bench/results/latest.json again
                 against today's limits, write them back, and rewrite the marked sections
                 of bench/README.md from it (other options are ignored)

A full run (no option) takes about forty minutes, writes bench/results/latest.json
and rewrites the marked sections of bench/README.md from it.`;

/** Parses the command line; `undefined` for --help. Throws on an unknown option or section. */
export function parseSettings(argv: string[]): Settings | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      out: { type: 'string' },
      'keep-callgrind': { type: 'string' },
      before: { type: 'string' },
      launches: { type: 'string' },
      render: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return undefined;
  const sections = values.only ? (values.only.split(',') as Section[]) : [...SECTION_NAMES];
  const unknown = sections.filter((s) => !SECTION_NAMES.includes(s));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(', ')}; known: ${SECTION_NAMES.join(', ')}`);
  const quick = values.quick === true;
  const launches = values.launches === undefined ? undefined : Number(values.launches);
  if (launches !== undefined && !(Number.isInteger(launches) && launches >= 2 && launches <= 100))
    throw new Error(`--launches must be a whole number from 2 to 100, got ${JSON.stringify(values.launches)}`);
  // Another tree's mock in the tables is a comparison, not the figures of this checkout.
  const publish = !quick && !values.only && !values.out && values.before === undefined;
  return {
    quick,
    sections: SECTION_NAMES.filter((s) => sections.includes(s)),
    // Eight launches of 1 s, not four of 1.5 s: a median of eight holds where one launch of four that read 1.3x on a
    // load moved a mean of four by 0.06.
    launches: launches ?? (quick ? 2 : 8),
    peerLaunches: quick ? 2 : 4,
    durationS: quick ? 0.5 : 1,
    // Ten slices of 0.1 s, not four of 0.25 s: the control's misses were bursts of other load, not a process's speed
    // (one launch read 1.13, 0.77, 1.01, 0.86 and 1.14 on its five loads), and a burst of half a second fell on
    // two of one server's four slices; of ten short ones it takes a few, which a launch's median of them leaves out.
    sliceS: 0.1,
    warmupS: 0.5,
    connections: 32,
    startupRuns: quick ? 3 : 7,
    scaleRounds: quick ? 1 : 3,
    scaleDurationS: quick ? 1 : 1.5,
    ...(values['keep-callgrind'] === undefined ? {} : { keepCallgrind: values['keep-callgrind'] }),
    ...(values.before === undefined ? {} : { before: resolve(values.before) }),
    scaleCounts: quick ? [1_000, 1_000_000] : [1_000, 100_000, 1_000_000],
    out: values.out ?? join(ROOT, 'bench', 'results', publish ? 'latest.json' : 'quick.tmp'),
    publish,
    render: values.render === true,
  };
}
