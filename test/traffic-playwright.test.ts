/**
 * Recorded traffic judged: HARs written by Playwright's `recordHar` in Debian's
 * Chromium (never by hand), on a page that calls the mock, in each content
 * mode; once with mock scenarios forcing answers the contract does not list,
 * once against the fake server with a broken contract. The causes must name
 * the fault and whose it is; secrets never reach an output.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeTraffic, REPORTERS, renderReport } from '../conformance/index.ts';
import { startFakePetstore } from '../conformance/test/fake-petstore.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { callFromPage, launchChromium, type PageCall, recordHar, startPageServer } from './support/record-har.ts';

const KEY = 'sk-live-recorded-9f3a7c21';
let browser: Browser;
let mock: MockServer;
let pages: Awaited<ReturnType<typeof startPageServer>>;
const dir = mkdtempSync(join(tmpdir(), 'petstore-har-'));

beforeAll(async () => {
  mock = await startMockServer({ count: 5, apiKeys: [KEY] });
  pages = await startPageServer('Pets page');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await pages?.close();
  if (!process.env.KEEP_HAR) rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

/** What a client does right and wrong: a listing, a create, a fetch, and four requests the contract refuses. */
function calls(base: string): PageCall[] {
  return [
    { url: `${base}/pets?limit=3`, headers: auth },
    {
      method: 'POST',
      url: `${base}/pets`,
      headers: json,
      body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'sold' }),
    },
    { url: `${base}/pets/1`, headers: auth },
    { url: `${base}/pets?status=sold&limit=5`, headers: auth },
    { url: `${base}/pets` },
    { url: `${base}/pets?limit=0`, headers: auth },
    { method: 'POST', url: `${base}/pets`, headers: json, body: JSON.stringify({ categoryId: 2 }) },
    { method: 'POST', url: `${base}/pets`, headers: json, body: JSON.stringify({ name: 'Tom', categoryId: '2' }) },
  ];
}

function allOutputs(report: Awaited<ReturnType<typeof judgeTraffic>>): string {
  return REPORTERS.map((name) => renderReport(name, report)).join('\n');
}

describe.each(['embed', 'attach', 'omit'] as const)('Playwright recordHar, content %s, against the mock', (content) => {
  let report: Awaited<ReturnType<typeof judgeTraffic>>;
  const har = join(dir, content, 'pets.har');

  beforeAll(async () => {
    await recordHar(browser, { path: har, content, pageUrl: pages.url }, async (page) => {
      const statuses = await callFromPage(page, calls(mock.url));
      expect(statuses).toEqual([200, 201, 200, 200, 401, 400, 400, 400]);
    });
    report = await judgeTraffic({ files: [har], baseUrl: mock.url, exchangeLog: true });
  }, 60_000);

  it('judges the mock conforming and names each fault of the client', () => {
    const server = report.cases.filter((c) => c.side !== 'client' && c.outcome === 'failed');
    expect(server.map((c) => c.reason)).toEqual([]);
    const client = (report.causes ?? []).filter((c) => c.side === 'client').map((c) => c.statement);
    expect(client.join('\n')).toMatch(/no Authorization header/);
    expect(client.join('\n')).toMatch(/limit="0" is not an integer from 1 to 100/);
    if (content !== 'omit') {
      expect(client.join('\n')).toMatch(/body is not a NewPet/);
      expect(
        report.cases.find(
          (c) =>
            c.id.endsWith('.client') &&
            c.checks.some((k) => /categoryId must be integer/.test(k.details?.join() ?? '')),
        ),
      ).toBeDefined();
    }
    expect(report.ok).toBe(false);
    expect(report.traffic?.judged).toBe(8);
  });

  it('says what it could not judge when the bodies were not recorded', () => {
    const notJudged = report.cases.flatMap((c) => c.checks).filter((k) => k.message === 'not judged: no body recorded');
    if (content === 'omit') expect(notJudged.length).toBeGreaterThan(0);
    else expect(notJudged).toEqual([]);
    if (content === 'attach') expect(readdirSync(join(dir, content)).length).toBeGreaterThan(1);
  });

  it('leaves the key out of every output, the HAR out included', () => {
    const text = allOutputs(report);
    expect(text).not.toContain(KEY);
    expect(text).toContain('Bearer [REDACTED]');
  });
});

describe('mock scenarios forcing answers the contract does not list', () => {
  it('names the server as the one at fault, with the entries as evidence', async () => {
    const har = join(dir, 'forced.har');
    mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 404, times: 1 });
    mock.scenarios.add({ method: 'POST', path: '/v1/pets', status: 400, times: 1 });
    await recordHar(browser, { path: har, content: 'embed', pageUrl: pages.url }, async (page) => {
      await callFromPage(page, calls(mock.url).slice(0, 2));
    });
    const report = await judgeTraffic({ files: [har], baseUrl: mock.url });
    const statements = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`);
    expect(statements).toContainEqual(
      expect.stringMatching(/^server .*GET \/v1\/pets answers 404 where the contract requires 200 or 401/),
    );
    expect(statements).toContainEqual(
      expect.stringMatching(/^server .*POST \/v1\/pets answers 400 where the contract requires 201 or 401/),
    );
    expect(report.causes?.[0]?.evidence?.[0]?.page).toBe('Pets page');
    expect(report.ok).toBe(false);
  }, 60_000);
});

describe('a server that breaks the contract', () => {
  it('is caught from its recorded traffic, each fault its own cause', async () => {
    const fake = await startFakePetstore({
      apiKey: KEY,
      count: 30,
      violations: ['errorStatusMismatch', 'statusFilterIgnored', 'noValidation'],
    });
    try {
      const har = join(dir, 'broken.har');
      const origin = new URL(fake.url).origin;
      // The page is the API's own origin (the fake sends no CORS headers).
      await recordHar(browser, { path: har, content: 'embed', pageUrl: `${origin}/` }, async (page) => {
        await callFromPage(page, calls(fake.url));
      });
      const report = await judgeTraffic({ files: [har], baseUrl: fake.url, side: 'server' });
      const text = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`).join('\n');
      expect(text).toMatch(/server .*Error status/);
      expect(text).toMatch(/across entries .*status=sold listed id \d+ has status "(available|pending)"/);
      expect(text).toMatch(/server .*POST \/v1\/pets answers 201 where/);
      // --side server: the client's faults are listed, not failures.
      expect(report.cases.filter((c) => c.side === 'client' && c.outcome === 'failed')).toEqual([]);
      expect(report.cases.some((c) => c.side === 'client' && c.reason?.startsWith('not judged: --side server'))).toBe(
        true,
      );
      expect(readFileSync(har, 'utf8')).toContain(KEY);
      expect(allOutputs(report)).not.toContain(KEY);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
