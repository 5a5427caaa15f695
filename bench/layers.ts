/**
 * The servers the throughput section loads, and the rows of "where the time
 * goes": each of the mock's costs as the difference between two of them. The
 * rows part of the mock form a ladder from the minimal server to the mock, each
 * rung adding one cost to the one before, so their costs add up to the mock's.
 * Adding a layer is one entry of {@link LAYERS}.
 */

import { join } from 'node:path';
import type { LoadName } from './servers/index.ts';

/** What the yardstick and the mock are loaded with; the rungs between them, only with {@link LADDER_LOADS}. */
export const ALL_LOADS: readonly LoadName[] = ['list', 'sold', 'get', 'create', 'mixed'];

/** The loads the ladder's rungs are measured on (each rung costs a server's run per load). */
export const LADDER_LOADS: readonly LoadName[] = ['list', 'get', 'create'];

/** How a server of the throughput section is started. */
export type ServerStart =
  /** One of bench/servers/cli.ts's servers. */
  | { kind: 'bench'; variant: 'minimal' | 'key' | 'handler' }
  /**
   * dist/mock/node/cli.js (the `petstore-mock` bin) with these arguments, besides the port and key; `bin`: another
   * build's (`--before DIR`), an absolute path, instead of the installed package's.
   */
  | { kind: 'mock'; args: string[]; stderr?: 'ignore'; bin?: string };

/** A server of the throughput section. */
export interface BenchServer {
  /** Unique; the key of its figures in the results. */
  key: string;
  /** What it is, in a table. */
  label: string;
  start: ServerStart;
  /** It has `POST /__control/reset`, called after each round of POSTs so that every round sees its seeded pets. */
  resettable: boolean;
  /** Pets it is seeded with (the mock's `--count`; the minimal server gets a mock's answers at that size). */
  pets: number;
  /** What it is loaded with. */
  loads: readonly LoadName[];
  /** The key of the yardstick its ratios are taken over (the minimal server at the same size). */
  baseline: string;
}

/** A row of "where the time goes": a cost of the mock, measured as the difference between two servers that differ by it alone. */
export interface Layer {
  name: string;
  /** How it is measured, in a table. */
  measuredAs: string;
  /** The server with the cost. */
  with: BenchServer;
  /** The same server without it. */
  over: BenchServer;
  /** Whether the mock row (what the targets hold) includes it. */
  partOfMock: boolean;
}

/** The yardstick: bench/servers/minimal.ts. */
export const MINIMAL: BenchServer = {
  key: 'minimal',
  label: 'minimal node:http server',
  start: { kind: 'bench', variant: 'minimal' },
  resettable: true,
  pets: 50,
  loads: ALL_LOADS,
  baseline: 'minimal',
};

/**
 * The control: the yardstick again, in a process of its own, loaded like the others and compared with the yardstick
 * as they are. The two cost the same per request, so its ratios show what the method reads when nothing differs:
 * a ratio is called only when it is further from its target than the control is from 1. Not counted under callgrind
 * (a count repeats; the control is for time).
 */
export const MINIMAL_AGAIN: BenchServer = {
  ...MINIMAL,
  key: 'minimal-again',
  label: 'control: the minimal server again',
};

/** The yardstick with a mock's answers at 1,000 pets. */
export const MINIMAL_1000: BenchServer = {
  ...MINIMAL,
  key: 'minimal-1000',
  label: 'minimal node:http server, 1,000 pets',
  pets: 1_000,
  baseline: 'minimal-1000',
};

/** The control at 1,000 pets: the yardstick at that size again, in a process of its own. */
export const MINIMAL_AGAIN_1000: BenchServer = {
  ...MINIMAL_1000,
  key: 'minimal-again-1000',
  label: 'control: the minimal server again, 1,000 pets',
};

/** The mock as a test or `petstore-mock --quiet` runs it: CORS on, no request log. What the targets hold. */
export const MOCK: BenchServer = {
  key: 'mock',
  label: 'mock (petstore-mock --quiet)',
  start: { kind: 'mock', args: ['--quiet'] },
  resettable: true,
  pets: 50,
  loads: ALL_LOADS,
  baseline: 'minimal',
};

/** The mock seeded with 1,000 pets: a client developer's mock at a realistic size. */
export const MOCK_1000: BenchServer = {
  ...MOCK,
  key: 'mock-1000',
  label: 'mock (petstore-mock --quiet --count 1000)',
  start: { kind: 'mock', args: ['--quiet', '--count', '1000'] },
  pets: 1_000,
  baseline: 'minimal-1000',
};

/** Prism's mock on `port` (a number, or `P` where shown), for context in the startup section; logging at warn, its closest match to the mock's --quiet. */
export function prismArgs(port: number | string): string[] {
  return ['mock', '-d', '-v', 'warn', '-h', '127.0.0.1', '-p', String(port), 'spec/petstore.openapi.yaml'];
}

/** A rung of the ladder: 50 pets, the ladder's loads. */
const RUNG = { pets: 50, loads: LADDER_LOADS, baseline: 'minimal' } as const;

const KEY_CHECK: BenchServer = {
  key: 'minimal+key',
  label: "minimal + the mock's key check",
  start: { kind: 'bench', variant: 'key' },
  resettable: true,
  ...RUNG,
};
const HANDLER: BenchServer = {
  key: 'minimal+handler',
  label: "minimal + mock/core's bare handler",
  start: { kind: 'bench', variant: 'handler' },
  resettable: true,
  ...RUNG,
};
const MOCK_NO_JOURNAL: BenchServer = {
  key: 'mock-no-cors-no-journal',
  label: 'mock --quiet --no-cors --journal-size 0',
  start: { kind: 'mock', args: ['--quiet', '--no-cors', '--journal-size', '0'] },
  resettable: true,
  ...RUNG,
};
const MOCK_NO_CORS: BenchServer = {
  key: 'mock-no-cors',
  label: 'mock --quiet --no-cors',
  start: { kind: 'mock', args: ['--quiet', '--no-cors'] },
  resettable: true,
  ...RUNG,
};
const MOCK_LOGGING: BenchServer = {
  key: 'mock+log',
  label: 'mock with its request log',
  start: { kind: 'mock', args: [], stderr: 'ignore' },
  resettable: true,
  ...RUNG,
};

/** The rows of "where the time goes", in ladder order. */
export const LAYERS: readonly Layer[] = [
  {
    name: 'key check',
    measuredAs: "minimal + mock/core's createAuthenticator, over minimal",
    with: KEY_CHECK,
    over: MINIMAL,
    partOfMock: true,
  },
  {
    name: 'the route',
    measuredAs: "minimal answering with mock/core's pipeline, no layer switched on, over minimal + key check",
    with: HANDLER,
    over: KEY_CHECK,
    partOfMock: true,
  },
  {
    name: 'node adapter and layers',
    measuredAs: 'mock --quiet --no-cors --journal-size 0, over minimal + handler',
    with: MOCK_NO_JOURNAL,
    over: HANDLER,
    partOfMock: true,
  },
  {
    name: 'request journal',
    measuredAs: 'mock --quiet --no-cors (journal of 1000, the default), over the same with --journal-size 0',
    with: MOCK_NO_CORS,
    over: MOCK_NO_JOURNAL,
    partOfMock: true,
  },
  {
    name: 'CORS headers',
    measuredAs: 'mock --quiet, over mock --quiet --no-cors',
    with: MOCK,
    over: MOCK_NO_CORS,
    partOfMock: true,
  },
  {
    name: 'request log',
    measuredAs: 'mock logging each request (stderr to /dev/null), over mock --quiet',
    with: MOCK_LOGGING,
    over: MOCK,
    partOfMock: false,
  },
];

/** What the key of a `--before` mock ends in: the rest is the key of this tree's mock it is compared with. */
export const BEFORE = '-before';

/** The `petstore-mock` bin of a built tree (`--before DIR`). */
export function beforeBin(tree: string): string {
  return join(tree, 'dist', 'mock', 'node', 'cli.js');
}

/**
 * The mock of another built tree (`--before DIR`, say main's before a change), started as {@link MOCK} and
 * {@link MOCK_1000} are: loaded in the same launches and slices, its ratios beside this tree's.
 */
export function mocksBefore(tree: string): BenchServer[] {
  const bin = beforeBin(tree);
  return [MOCK, MOCK_1000].map((mock) => ({
    ...mock,
    key: `${mock.key}${BEFORE}`,
    label: `${mock.label}, of ${tree} (--before)`,
    start: { ...mock.start, bin } as ServerStart,
  }));
}

/** Every server to load, each once: the yardstick first, then the rungs of the ladder in order, then `extra`. */
export function benchServers(layers: readonly Layer[] = LAYERS, extra: readonly BenchServer[] = []): BenchServer[] {
  const servers = new Map<string, BenchServer>();
  const add = (server: BenchServer): void => {
    const known = servers.get(server.key);
    if (known && known !== server) throw new Error(`two servers share the key ${server.key}`);
    servers.set(server.key, server);
  };
  add(MINIMAL);
  for (const layer of layers) [layer.over, layer.with].forEach(add);
  add(MOCK);
  add(MINIMAL_AGAIN);
  add(MINIMAL_1000);
  add(MINIMAL_AGAIN_1000);
  add(MOCK_1000);
  extra.forEach(add);
  return [...servers.values()];
}
