/** What the bench's peers section measured: the figures bench/report.ts carries and bench/peers.ts writes. */
import type { LoadName } from './servers/index.ts';

/** What a server answered to one request of a route, before the loading: what a user gets. */
export interface PeerAnswer {
  status: number;
  bytes: number;
  /** Pets in a JSON array body. */
  items?: number;
}

/** One server of the section, at one store size: its start, memory, and every load, each beside the mock's. */
export interface PeerFigures {
  key: string;
  label: string;
  pets: number;
  seeded: string;
  command: string;
  /** Spawn to the first 200 on GET /pets/1, ms: the median of the launches, and the median of its per-launch ratios to the mock's (means before 2026-11-29). */
  startMs: number;
  startOverMock: number;
  /** Peak resident memory (VmHWM) at the end of a launch, bytes; the median, and the median ratio to the mock's. */
  peakRssBytes: number;
  rssOverMock: number;
  /** One request of each route, with the key. */
  answers: Partial<Record<LoadName, PeerAnswer>>;
  /** Per load: req/s, p99 ms, and the medians of the per-launch ratios to the mock (p99: this server's over the mock's). */
  routes: Partial<
    Record<
      LoadName,
      {
        rps: number;
        p99Ms: number;
        cpuUsPerRequest: number;
        rpsOverMock: number;
        cpuOverMock: number;
        cpuOverMockRange: [number, number];
        p99OverMock: number;
        failures: number;
      }
    >
  >;
}

/** The section's results, with the run they came from (they may be merged into a full run's JSON). */
export interface PeersFigures {
  command: string;
  generatedAt: string;
  loadAverage: string;
  launches: number;
  /** How launches were summed up: `median`; absent, means (results before 2026-11-29). */
  statistic?: 'median';
  /** A launch's ratios are the medians of its cycles' ratios (see bench/load.ts `cycleRatio`); absent, of its totals. */
  cycles?: 'median';
  /** Mixed requests each fresh process got before anything was measured. */
  launchWarmup: number;
  sliceS: number;
  durationS: number;
  versions: Record<string, string>;
  servers: PeerFigures[];
}
