/**
 * A HAR exported by Firefox itself (Debian's firefox-esr, headless): its netmonitor's HAR auto-export, the code
 * behind "Save All As HAR", writes the file (test/support/firefox.ts), with response bodies and without them
 * (`devtools.netmonitor.har.includeResponseBodies`). The page calls the mock across origins, so Firefox's HAR also
 * holds the CORS preflights, its `timings.blocked` of -1, `postData.params: []` and, without bodies, a content of
 * only a size and a comment, and a reset connection as status 0. The judge must count the preflights as no operation
 * and the reset as unanswered, name the answer a scenario forced, the body that is not JSON (where bodies were kept)
 * and each fault of the client, leave the body checks not judged without bodies, and hide the key.
 * Fails, never skips, where Firefox is missing: `npm test` installs it (scripts/system-packages.mjs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeTraffic, REPORTERS, renderReport } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { FIREFOX, type FirefoxHar, firefoxVersion, recordFirefoxHar } from './support/firefox.ts';
import { runProcess, tsxEntry } from './support/processes.ts';
import type { PageCall } from './support/record-har.ts';

const KEY = 'sk-firefox-recorded-7e61d0';
const version = firefoxVersion();
const dir = mkdtempSync(join(tmpdir(), 'petstore-firefox-'));
const recorded: Record<'bodies' | 'noBodies', { mock?: MockServer; firefox?: FirefoxHar }> = {
  bodies: {},
  noBodies: {},
};

/**
 * A listing a scenario forces to 404, a listing, a pet, an unknown pet, no key, a create, two requests the contract
 * refuses, a pet answered with a body that is not JSON, and a listing whose connection is reset (no answer).
 */
function calls(base: string): PageCall[] {
  const auth = { authorization: `Bearer ${KEY}` };
  const json = { ...auth, 'content-type': 'application/json' };
  return [
    { url: `${base}/pets?limit=2`, headers: auth },
    { url: `${base}/pets?limit=3`, headers: auth },
    { url: `${base}/pets/1`, headers: auth },
    { url: `${base}/pets/999`, headers: auth },
    { url: `${base}/pets` },
    { method: 'POST', url: `${base}/pets`, headers: json, body: JSON.stringify({ name: 'Fox', categoryId: 1 }) },
    { url: `${base}/pets?limit=0`, headers: auth },
    { method: 'POST', url: `${base}/pets`, headers: json, body: JSON.stringify({ name: 'Tom', categoryId: '2' }) },
    { url: `${base}/pets/2`, headers: { ...auth, prefer: 'fault=malformed' } },
    { url: `${base}/pets?limit=4`, headers: { ...auth, prefer: 'fault=reset' } },
  ];
}

beforeAll(async () => {
  if (!version) return;
  // The two Firefoxes run side by side: each is a few seconds of start-up, mostly waiting.
  await Promise.all(
    (['bodies', 'noBodies'] as const).map(async (name) => {
      const mock = await startMockServer({ count: 4, apiKeys: [KEY] });
      recorded[name].mock = mock;
      mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 404, times: 1 });
      recorded[name].firefox = await recordFirefoxHar({
        dir: join(dir, name),
        title: 'Firefox page',
        calls: calls(mock.url),
        includeResponseBodies: name === 'bodies',
        timeoutMs: 45_000,
      });
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(recorded).map((r) => r.mock?.close()));
  if (!process.env.KEEP_HAR) rmSync(dir, { recursive: true, force: true });
});

it('runs Debian firefox-esr (npm test installs it)', () => {
  const found = version ?? `${FIREFOX} did not run`;
  expect(found, "Debian's Firefox ESR: sudo apt-get install -y firefox-esr").toMatch(/^Mozilla Firefox \d+/);
});

describe.each(['bodies', 'noBodies'] as const)('a HAR Firefox exported (%s)', (name) => {
  it.runIf(version)('is written by Firefox, and holds what the page did', () => {
    const { firefox } = recorded[name];
    expect(firefox!.statuses).toEqual([404, 200, 200, 404, 401, 201, 400, 400, 200, 0]);
    const log = JSON.parse(readFileSync(firefox!.har, 'utf8')).log;
    expect(log.creator).toEqual({ name: 'Firefox', version: version!.match(/\d+\.\d+(\.\d+)?/)![0] });
    const methods = log.entries.map((e: { request: { method: string } }) => e.request.method);
    expect(methods).toContain('OPTIONS');
    const contents = log.entries.map((e: { response: { content: object } }) => e.response.content);
    if (name === 'noBodies') for (const c of contents) expect(c).not.toHaveProperty('text');
    else expect(contents.filter((c: { text?: string }) => c.text?.startsWith('[{"id":'))).toHaveLength(1);
    expect(readFileSync(firefox!.har, 'utf8')).toContain(KEY);
  });

  it.runIf(version)('is judged: the forced answer and each fault of the client named, the key hidden', async () => {
    const { mock, firefox } = recorded[name];
    const report = await judgeTraffic({ files: [firefox!.har], baseUrl: mock!.url, exchangeLog: true });
    expect(report.traffic?.judged).toBe(9);
    // Firefox writes the reset connection as status 0, no headers.
    expect(report.traffic?.unanswered).toEqual({ 'no answer (status 0)': 1 });
    const preflights = Object.entries(report.traffic?.notOperations ?? {});
    expect(preflights.length).toBeGreaterThan(0);
    for (const [key] of preflights) expect(key).toMatch(/^OPTIONS \/pets/);
    // The page, its held image, its favicon and the statuses it posted back: its own host, outside the base URL.
    expect(Object.keys(report.traffic?.outside ?? {})).toEqual([new URL(firefox!.pageUrl).host]);
    const causes = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`);
    const server = causes.filter((c) => !c.startsWith('client'));
    const forced = expect.stringMatching(/^server .*GET \/v1\/pets answers 404 where the contract requires 200 or 401/);
    // The body that is not JSON is seen only where Firefox kept the bodies.
    const notJson = expect.stringMatching(/^server .*Pet bodies: body is not JSON/);
    expect(server).toEqual(name === 'bodies' ? [forced, notJson] : [forced]);
    const client = causes.filter((c) => c.startsWith('client')).join('\n');
    expect(client).toMatch(/no Authorization header/);
    expect(client).toMatch(/limit="0" is not an integer from 1 to 100/);
    // The request body is recorded even when the response bodies are not.
    expect(client).toMatch(/body is not a NewPet/);
    const notJudged = report.cases.flatMap((c) => c.checks).filter((k) => k.message === 'not judged: no body recorded');
    expect(notJudged.length > 0).toBe(name === 'noBodies');
    expect(report.ok).toBe(false);
    const outputs = REPORTERS.map((reporter) => renderReport(reporter, report)).join('\n');
    expect(outputs).not.toContain(KEY);
    expect(outputs).toContain('Bearer [REDACTED]');
  });
});

it.runIf(version)(
  'is judged by the CLI: exit 1, the cause printed, the key hidden',
  async () => {
    const { mock, firefox } = recorded.bodies;
    const run = await runProcess([
      ...tsxEntry('conformance/cli.ts'),
      'judge',
      firefox!.har,
      '--base-url',
      mock!.url,
      '--side',
      'server',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/GET \/v1\/pets answers 404 where the contract requires 200 or 401/);
    expect(run.stdout).toMatch(/Pet bodies: body is not JSON/);
    // --side server: the client's faults are listed as not judged, not failures.
    expect(run.stdout).toMatch(
      /not judged: --side server \(the client's finding: request key: no Authorization header/,
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  },
  30_000,
);
