import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CannedResponses, createBareServer } from './bare-server.ts';
import { median, quantile } from './load.ts';
import { type BenchResults, checkTargets, type RouteFigures, renderTables } from './report.ts';

const responses: CannedResponses = {
  list: {
    status: 200,
    headers: { 'content-type': 'application/json', date: 'dropped' },
    body: '[{"id":1,"name":"Jax","categoryId":11}]',
  },
  create: {
    status: 201,
    headers: { 'content-type': 'application/json', location: '/v1/pets/2' },
    body: '{"id":2,"name":"Rex","categoryId":3}',
  },
  get: {
    status: 200,
    headers: { 'content-type': 'application/json', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' },
    body: '{"id":1,"name":"Jax","categoryId":11}',
  },
};

describe('the bare server', () => {
  const server = createBareServer({ apiKey: 'k', responses });
  let base = '';
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers 401 with a challenge without the key, whatever the route', async () => {
    const response = await fetch(`${base}/pets`, { headers: { authorization: 'Bearer wrong' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await fetch(`${base}/pets/1`)).status).toBe(401);
  });

  it('replays each canned response byte for byte, with a correct Content-Length', async () => {
    const auth = { authorization: 'bearer k' };
    const list = await fetch(`${base}/pets?limit=20`, { headers: auth });
    expect([list.status, await list.text(), list.headers.get('content-length')]).toEqual([
      200,
      responses.list.body,
      String(responses.list.body.length),
    ]);
    expect(list.headers.get('date')).not.toBe('dropped');
    const get = await fetch(`${base}/pets/1`, { headers: auth });
    expect([get.status, await get.text(), get.headers.get('sunset')]).toEqual([
      200,
      responses.get.body,
      responses.get.headers.sunset,
    ]);
    const create = await fetch(`${base}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":3}',
    });
    expect([create.status, await create.text(), create.headers.get('location')]).toEqual([
      201,
      responses.create.body,
      '/v1/pets/2',
    ]);
  });
});

describe('the bench helpers', () => {
  it('takes nearest-rank quantiles and medians', () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([quantile(sorted, 0.5), quantile(sorted, 0.99), quantile(sorted, 0), quantile([], 0.5)]).toEqual([
      5,
      10,
      1,
      NaN,
    ]);
    expect([median([3, 1, 2]), median([4, 1, 3, 2]), median([])]).toEqual([2, 2.5, NaN]);
  });

  it('checks the targets and renders every section', () => {
    const route = (rps: number, p99Ms = 1): RouteFigures => ({ rps, p50Ms: 0.5, p99Ms, failures: 0 });
    const servers = (mock: number, p99Ms?: number) => ({
      mock: route(mock, p99Ms),
      bare: route(100),
      prism: route(5),
      ratios: { mockOverBare: mock / 100, mockOverPrism: mock / 5 },
    });
    const scale = (count: number, listenMs: number, p50: number) => ({
      count,
      listenMs,
      rssBytes: 100 * 2 ** 20,
      soldP50Ms: p50,
      soldP99Ms: p50,
      allP50Ms: p50,
      allP99Ms: p50,
    });
    const partial: Omit<BenchResults, 'targets'> = {
      generatedAt: '',
      command: 'npm run bench',
      quick: true,
      machine: {},
      settings: { connections: 32, startupRuns: 1 },
      throughput: { list: servers(90, 6), create: servers(50), get: servers(70) },
      startup: [
        { label: 'direct', command: 'x', target: true, group: '', medianMs: 200, runsMs: [200] },
        { label: 'npm', command: 'x', target: true, group: '', medianMs: 300, runsMs: [300] },
        { label: 'floor', command: 'z', target: false, group: '', medianMs: 100, runsMs: [100] },
        { label: 'prism', command: 'y', target: false, group: '', medianMs: 1000, runsMs: [1000] },
        // Another environment: compared with its own Prism (300 / 1500 = 0.2), not the first one (0.3).
        { label: 'npm', command: 'x', target: true, group: 'other env', medianMs: 300, runsMs: [300] },
        { label: 'prism', command: 'y', target: false, group: 'other env', medianMs: 1500, runsMs: [1500] },
      ],
      scale: [scale(1_000, 300, 0.1), scale(1_000_000, 4000, 0.2)],
      conformance: { measured: false, reason: 'absent' },
    };
    const targets = checkTargets(partial);
    const met = Object.fromEntries(targets.map((t) => [t.name, t.met]));
    expect(met['list: mock/bare req/s']).toBe(true);
    expect(met['list: mock p99 at 32 connections (ms)']).toBe(false);
    expect(met['create: mock/bare req/s']).toBe(false);
    expect(met['startup: direct/prism']).toBe(true);
    expect(met['startup: npm/prism']).toBe(false);
    expect(met['startup: npm/prism, other env']).toBe(true);
    expect(Object.keys(met).filter((name) => name.startsWith('startup:'))).toEqual([
      'startup: direct/prism',
      'startup: npm/prism',
      'startup: npm/prism, other env',
    ]);
    expect(met['1M/1K: p50 of ?limit=100']).toBe(false);
    const twice = { ...partial, startup: [...partial.startup, { ...partial.startup[0]! }] };
    expect(() => checkTargets(twice)).toThrow(/share a label and a group/);
    const text = renderTables({ ...partial, targets });
    expect(text).toContain('| GET /v1/pets?limit=20 |');
    expect(text).toContain('NOT MEASURED: absent');
    expect(text).toMatch(/\| npm, other env +\| +300 \| +0\.20x \|/);
  });
});

describe('the published figures', () => {
  const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
  const latest = JSON.parse(read('bench/results/latest.json')) as BenchResults;

  it('bench/README.md shows the tables of bench/results/latest.json as the bench printed them', () => {
    expect(read('bench/README.md')).toContain(renderTables(latest));
  });
});
