/**
 * The reference mock behind Prism's validation proxy (not in --errors mode, so
 * every request reaches the mock), validating against the mock's own profile
 * (the contract with spec/mock.overlay.yaml applied), as served by the mock at
 * GET /__control/openapi.json: the mock's own traffic (forced answers
 * included) and the whole conformance suite go through it, and no response
 * may carry a violation, of Error or of Warning severity. Against the bare
 * contract the same traffic warns for every status the contract does not list.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import {
  type PrismServer,
  recordViolations,
  startPrism,
  summarizeViolations,
  type ViolationRecord,
  type ViolationRecorder,
} from '../prism/index.ts';
import { mockTraffic, type TrafficItem } from './prism-traffic.ts';

/** Prism's own answer to a JSON body it cannot parse: the request never reaches the upstream. */
const PRISM_INVALID_JSON = '{"error":{"code":"invalid_json","message":"Invalid JSON"}}';

let mock: MockServer;
let prism: PrismServer;
let recorder: ViolationRecorder;
let agent: Agent;
let profileDir: string;
const reachedMock: string[] = [];

beforeAll(async () => {
  mock = await startMockServer({
    log: (entry) => {
      if (!entry.path.startsWith('/__control/')) reachedMock.push(`${entry.method} ${entry.path} ${entry.status}`);
    },
  });
  // Prism reads a file: the profile exactly as the mock serves it.
  profileDir = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
  const spec = join(profileDir, 'profile.json');
  writeFileSync(spec, await (await fetch(`${mock.origin}/__control/openapi.json`)).text());
  prism = await startPrism({ mode: 'proxy', upstream: mock.url, spec, startTimeoutMs: 30_000 });
  recorder = recordViolations(prism.url);
  agent = new Agent({ headersTimeout: 10_000, bodyTimeout: 10_000 });
});

afterAll(async () => {
  recorder?.stop();
  await Promise.allSettled([agent?.close(), prism?.close(), mock?.close()]);
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

async function send(item: TrafficItem): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const headers: Record<string, string> = { ...item.headers };
  if (item.auth === 'key') headers.authorization = `Bearer ${mock.apiKeys[0]}`;
  else if (item.auth !== 'none') headers.authorization = item.auth.authorization;
  if (item.body !== undefined && item.contentType !== null)
    headers['content-type'] = item.contentType ?? 'application/json';
  const res = await request(`${prism.url}${item.path}`, {
    method: item.method,
    headers,
    body: item.body ?? null,
    dispatcher: agent,
  });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

function describeRecord(r: ViolationRecord): string {
  const errors = r.violations.filter((v) => v.location[0] !== 'request' && v.severity === 'Error');
  return `${r.method} ${r.path} -> ${r.status}\n  body: ${r.body.slice(0, 300)}\n  ${errors.map((v) => `${v.location.join('.')}: ${v.message}`).join('\n  ')}`;
}

describe('the reference mock behind Prism’s validation proxy', () => {
  it('passes the mock’s own traffic through unchanged, happy paths and every negative case', async () => {
    const wrong: string[] = [];
    for (const item of mockTraffic()) {
      const res = await send(item);
      if (res.status !== item.status)
        wrong.push(`${item.label}: expected ${item.status}, got ${res.status} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('runs the whole conformance suite through the proxy; the only failures are requests Prism answered itself', async () => {
    // Not getPet.malformed: its GET /pets/%FF (bytes that are not UTF-8) cuts the connection and Prism 5's proxy
    // process exits, so every later request is refused; the mock answers it directly (conformance-against-mock).
    const report = await runConformance({
      baseUrl: prism.url,
      apiKey: mock.apiKeys[0]!,
      timeoutMs: 10_000,
      skip: ['getPet.malformed'],
    });
    expect(report.summary.total).toBeGreaterThan(40);
    const failed = report.cases.filter((c) => c.outcome === 'failed');
    // Prism parses JSON bodies itself and answers a malformed one with its own 400 (not an Error body) without forwarding it.
    const notPrisms = failed.filter((c) => !c.exchanges.some((ex) => ex.response?.body === PRISM_INVALID_JSON));
    // And it re-serialises valid ones: 4503599627370496.5 reaches the mock as 4503599627370496, which it stores; a
    // body that is not UTF-8 reaches it with U+FFFD in place of the bytes, valid JSON, which it stores too.
    const reserialised = notPrisms.filter((c) =>
      ['createPet.categoryId.inexact', 'createPet.invalid.notUtf8'].includes(c.id),
    );
    expect(reserialised.map((c) => `${c.id}: ${c.reason}`).sort()).toEqual([
      expect.stringContaining('the answer reads 4503599627370496;'),
      'createPet.invalid.notUtf8: status: expected 400, got 201',
    ]);
    expect(notPrisms.filter((c) => !reserialised.includes(c)).map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
  });

  it('is not transparent in four places (pinned here because docs/prism.md says so)', async () => {
    const key = { authorization: `Bearer ${mock.apiKeys[0]}` };
    // HEAD: the mock answers 200 with no body; Prism tries to parse the empty body as JSON and answers 500.
    const head = await request(`${prism.url}/pets`, { method: 'HEAD', headers: key, dispatcher: agent });
    await head.body.dump();
    expect(head.statusCode).toBe(500);
    // A created animal's Location is the mock's path (/v1/pets/N), not rewritten to the proxy's root.
    const created = await send({
      label: 'create',
      method: 'POST',
      path: '/pets',
      auth: 'key',
      body: '{"name":"Loc","categoryId":1}',
      status: 201,
    });
    expect(created.headers.location).toMatch(/^\/v1\/pets\/\d+$/);
    // getPet is deprecated in the spec: Prism adds `Deprecation: true` where the mock sent none (its 404).
    const missing = await send({ label: 'missing', method: 'GET', path: '/pets/999999', auth: 'key', status: 404 });
    expect(missing.headers.deprecation).toBe('true');
    // Malformed JSON never reaches the mock: Prism answers with its own 400, which is not an Error body.
    const malformed = await send({
      label: 'malformed',
      method: 'POST',
      path: '/pets',
      auth: 'key',
      body: '{"name":',
      status: 400,
    });
    expect([malformed.status, malformed.body]).toEqual([400, PRISM_INVALID_JSON]);
  });

  it('reaches the mock with every request but the ones Prism answers itself', () => {
    const intercepted = recorder.records.filter((r) => r.body === PRISM_INVALID_JSON).length;
    expect(recorder.records.length).toBeGreaterThan(100);
    expect(reachedMock.length).toBe(recorder.records.length - intercepted);
    process.stdout.write(
      `Prism proxy: ${recorder.records.length} requests, ${reachedMock.length} reached the mock, ${intercepted} answered by Prism\n`,
    );
  });

  it('finds no response violation at all against the profile: no error, no warning', () => {
    const summary = summarizeViolations(recorder.records);
    writeReport(summary, recorder.records);
    const lines = [...summary.responseWarnings].map(([what, n]) => `  ${n} x ${what}`);
    process.stdout.write(
      `Prism proxy (profile): ${summary.requests} requests, ${summary.responseErrors.length} with response errors, warnings:\n${lines.join('\n')}\n`,
    );
    expect(summary.responseErrors.map(describeRecord)).toEqual([]);
    expect([...summary.responseWarnings.keys()]).toEqual([]);
    // Forced answers went through the proxy too, and reached the mock.
    expect(reachedMock.filter((line) => / (429|500|502|503|504)$/.test(line)).length).toBeGreaterThanOrEqual(15);
  });
});

function writeReport(summary: ReturnType<typeof summarizeViolations>, records: readonly ViolationRecord[]): void {
  mkdirSync(new URL('../reports/', import.meta.url), { recursive: true });
  const data = {
    requests: summary.requests,
    responseErrors: summary.responseErrors,
    responseWarnings: Object.fromEntries(summary.responseWarnings),
    requestViolations: Object.fromEntries(summary.requestViolations),
    statuses: Object.fromEntries(count(records.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`))),
  };
  writeFileSync(new URL('../reports/prism-proxy.json', import.meta.url), `${JSON.stringify(data, null, 2)}\n`);
}

function count(keys: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const key of keys) map.set(key, (map.get(key) ?? 0) + 1);
  return map;
}
