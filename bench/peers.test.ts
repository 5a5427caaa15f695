import { describe, expect, it } from 'vitest';
import { peersTables } from './peers.ts';
import type { PeerFigures, PeersFigures } from './peers-figures.ts';
import { renderSummary } from './readme.ts';
import { renderTables } from './render.ts';
import { parseSettings } from './settings.ts';

/** A server's figures at 50 pets, every ratio to the mock `r` (p99, start and memory too). */
function server(key: string, r: number, extra: Partial<PeerFigures> = {}): PeerFigures {
  const load = {
    rps: 1000 * r,
    p99Ms: 2 * r,
    cpuUsPerRequest: 30 / r,
    rpsOverMock: r,
    cpuOverMock: r,
    cpuOverMockRange: [r, r] as [number, number],
    p99OverMock: r,
    failures: 0,
  };
  return {
    key,
    label: key,
    pets: 50,
    seeded: `seeded ${key}`,
    command: `node ${key}`,
    startMs: 200 * r,
    startOverMock: r,
    peakRssBytes: 60e6 * r,
    rssOverMock: r,
    answers: { list: { status: 200, bytes: 1734, items: 20 }, create: { status: 201, bytes: 70 } },
    routes: { list: load, sold: load, get: load, create: load, mixed: load },
    ...extra,
  };
}

function run(servers: PeerFigures[]): PeersFigures {
  return {
    command: 'npm run bench -- --only peers',
    generatedAt: '2026-11-27T20:00:00.000Z',
    loadAverage: '9.00',
    launches: 4,
    launchWarmup: 5000,
    sliceS: 0.25,
    durationS: 1.5,
    versions: { 'json-server': '0.17.4' },
    servers,
  };
}

const row = (text: string, label: string) => text.split('\n').find((line) => line.startsWith(`| ${label}, 50 pets `))!;

describe('the peers table', () => {
  it('marks a ratio no further from 1.00x than the control as one the method cannot tell, and calls the others', () => {
    // The control reads 1.05x: a peer at 0.97x is within it, one at 0.50x is not.
    const text = peersTables(
      run([server('mock', 1), server('mock-again', 1.05), server('near', 0.97), server('far', 0.5)]),
    );
    expect(row(text, 'near')).toContain('≈0.97x');
    expect(row(text, 'far')).toContain('0.50x');
    expect(row(text, 'far')).not.toContain('≈');
  });

  it('uses the control of the same store size, not another size', () => {
    const big = (s: PeerFigures) => ({ ...s, pets: 1_000, key: `${s.key}-1000` });
    const text = peersTables(
      run([server('mock', 1), server('mock-again', 1.01), server('peer', 0.97), big(server('mock-again', 1.2))]),
    );
    expect(row(text, 'peer')).not.toContain('≈');
  });

  it('shows what each server answered and flags non-2xx answers under load', () => {
    const failing = server('json', 2, {
      routes: { ...server('x', 2).routes, create: { ...server('x', 2).routes.create!, failures: 12 } },
    });
    const text = peersTables(run([server('mock', 1), failing]));
    expect(text).toContain('200, 20 pets, 1,734 B');
    expect(text).toContain('201, 70 B');
    expect(text).toContain('json, 50 pets (12 non-2xx or errors)');
  });

  it('says when the peers were not measured, in every rendering of a run', () => {
    expect(peersTables(undefined)).toBe('Peers\n\nNot measured in this run.');
    const bare = {
      generatedAt: '2026-11-27T20:00:00.000Z',
      command: 'npm run bench -- --only bundle',
      quick: false,
      sections: ['bundle'],
      machine: {},
      settings: {},
      targets: [],
    };
    expect(renderTables(bare)).toContain('Peers\n\nNot measured in this run.');
  });

  it('gives the README summary one line of the peers at 50 pets, the mock and its control left out', () => {
    const summary = (peers: PeersFigures | undefined) =>
      renderSummary({
        generatedAt: '2026-11-27T20:00:00.000Z',
        command: 'npm run bench',
        quick: false,
        sections: ['peers'],
        machine: { nproc: 2 },
        settings: {},
        targets: [],
        ...(peers ? { peers } : {}),
      } as never);
    const big = (s: PeerFigures) => ({ ...s, pets: 1_000, key: `${s.key}-1000`, label: 'big' });
    const peers = run([server('mock', 1), server('mock-again', 1.05), server('prism', 0.2), big(server('prism', 0.9))]);
    const line = summary({ ...peers, statistic: 'median' })
      .split('\n')
      .find((l) => l.startsWith('Beside it'));
    expect(line).toBe(
      "Beside it (medians of 4 launches, 50 pets, the mixed load; requests per CPU-second, higher is better / start, lower is better, each over the mock's): prism 0.20x / 0.20x.",
    );
    expect(summary(undefined)).not.toContain('Beside it');
  });

  it('is a section of its own that --only can pick', () => {
    expect(parseSettings(['--only', 'peers'])?.sections).toEqual(['peers']);
  });
});
