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
import { launchChromium } from './support/chromium.ts';
import { callFromPage, type PageCall, recordHar, startPageServer } from './support/record-har.ts';

const KEY = 'sk-live-recorded-9f3a7c21';
const COOKIE = 'sess-0a1b2c3d4e5f6789';
const URL_KEY = 'urlkey-77aa88bb99cc';
const TENANT = 'tenant-secret-31415926';
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

describe('across entries, and getPet after its sunset', () => {
  it('catches a create answered with other fields than later reads show, a page over its limit, and a key refused once', async () => {
    const fake = await startFakePetstore({ apiKey: KEY, count: 30, violations: ['createNoEcho', 'limitIgnored'] });
    try {
      const har = join(dir, 'across.har');
      await recordHar(
        browser,
        { path: har, content: 'embed', pageUrl: `${new URL(fake.url).origin}/` },
        async (page) => {
          await callFromPage(page, [
            {
              method: 'POST',
              url: `${fake.url}/pets`,
              headers: json,
              body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
            },
            { url: `${fake.url}/pets/31`, headers: auth },
            { url: `${fake.url}/pets?limit=2`, headers: auth },
          ]);
        },
      );
      const report = await judgeTraffic({ files: [har], baseUrl: fake.url, asOf: '2031-01-01' });
      const text = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`).join('\n');
      expect(text).toMatch(/across .*getPet and listPets: same animal: id 31: name "renamed" at creation, "Rex" now/);
      expect(text.match(/same animal/g)).toHaveLength(1);
      expect(text).toMatch(/server .*echo: name sent "Rex", answered "renamed"/);
      expect(text).toMatch(/across .*at most limit: 31 items for a limit of 2/);
      expect(text).toMatch(/client .*getPet is called on 2031-01-01 \(--as-of\), on or after its sunset 2030-12-05/);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('names a 401 for a key that another entry shows working', async () => {
    const har = join(dir, 'refused.har');
    mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 401, times: 1 });
    await recordHar(browser, { path: har, content: 'embed', pageUrl: pages.url }, async (page) => {
      expect(await callFromPage(page, [calls(mock.url)[0]!, calls(mock.url)[2]!])).toEqual([401, 200]);
    });
    const report = await judgeTraffic({ files: [har], baseUrl: mock.url });
    const causes = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`);
    expect(causes).toEqual([
      expect.stringMatching(/^across .*key refused: 401 for a key that entry #\d+ used with a 2xx answer/),
    ]);
  }, 60_000);
});

describe('entries never answered, and hosts outside the base URL', () => {
  it('counts them, by reason and by host, and judges the rest', async () => {
    const har = join(dir, 'blocked.har');
    await recordHar(browser, { path: har, content: 'embed', pageUrl: pages.url }, async (page) => {
      await page.route('**/v1/pets?limit=9', (route) => route.abort('blockedbyclient'));
      expect(
        await callFromPage(page, [{ url: `${mock.url}/pets?limit=9`, headers: auth }, calls(mock.url)[0]!]),
      ).toEqual([0, 200]);
    });
    const report = await judgeTraffic({ files: [har], baseUrl: mock.url });
    expect(report.traffic?.judged).toBe(1);
    expect(Object.values(report.traffic?.unanswered ?? {})).toEqual([1]);
    expect(Object.keys(report.traffic?.unanswered ?? {})[0]).toMatch(/ERR_BLOCKED_BY_CLIENT|blocked/i);
    expect(report.traffic?.outside).toEqual({ [new URL(pages.url).host]: 1 });
    expect(report.ok).toBe(true);
  }, 60_000);
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

describe('a server that makes the other choices the contract allows', () => {
  it('passes on the server side: only the client is at fault', async () => {
    const choices = {
      lenient: true,
      descending: true,
      extraFields: true,
      malformedId404: true,
      validationBeforeAuth: true,
    };
    const fake = await startFakePetstore({ apiKey: KEY, count: 30, choices });
    try {
      const har = join(dir, 'choices.har');
      await recordHar(
        browser,
        { path: har, content: 'embed', pageUrl: `${new URL(fake.url).origin}/` },
        async (page) => {
          const statuses = await callFromPage(page, [
            ...calls(fake.url),
            { url: `${fake.url}/pets/abc`, headers: auth },
            { method: 'POST', url: `${fake.url}/pets`, body: '{}', headers: { 'content-type': 'application/json' } },
          ]);
          // The lenient choice answers limit=0 with a 200; validation before the key, a keyless bad body with 400.
          expect([statuses[5], statuses.at(-1)]).toEqual([200, 400]);
        },
      );
      const report = await judgeTraffic({ files: [har], baseUrl: fake.url, side: 'server' });
      expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => c.reason)).toEqual([]);
      expect(report.ok).toBe(true);
      expect((report.causes ?? []).map((c) => c.side)).toEqual([]);
      const both = await judgeTraffic({ files: [har], baseUrl: fake.url });
      expect(new Set((both.causes ?? []).map((c) => c.side))).toEqual(new Set(['client']));
    } finally {
      await fake.close();
    }
  }, 60_000);
});

describe('a server that breaks the contract', () => {
  it('is caught from its recorded traffic, each fault its own cause', async () => {
    const fake = await startFakePetstore({
      apiKey: KEY,
      count: 30,
      violations: ['errorStatusMismatch', 'statusFilterIgnored', 'noValidation', 'listWrongContentType'],
    });
    try {
      const har = join(dir, 'broken.har');
      const origin = new URL(fake.url).origin;
      // The page is the API's own origin (the fake sends no CORS headers).
      await recordHar(browser, { path: har, content: 'embed', pageUrl: `${origin}/` }, async (page) => {
        // A session cookie, a key in a URL and a tenant header: secrets a real app's traffic holds.
        await page.context().addCookies([{ name: 'session', value: COOKIE, url: origin }]);
        await callFromPage(page, [
          ...calls(fake.url),
          { url: `${fake.url}/pets?limit=1&api_key=${URL_KEY}`, headers: { ...auth, 'x-tenant-token': TENANT } },
        ]);
      });
      const report = await judgeTraffic({
        files: [har],
        baseUrl: fake.url,
        side: 'server',
        secretHeaders: ['X-Tenant-Token'],
        exchangeLog: true,
      });
      const text = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`).join('\n');
      expect(text).toMatch(/server .*Error status/);
      expect(text).toMatch(/across entries .*status=sold listed id \d+ has status "(available|pending)"/);
      expect(text).toMatch(/server .*POST \/v1\/pets answers 201 where/);
      expect(text).toMatch(/server .*wrong media type: expected application\/json, got "text\/plain"/);
      // --side server: the client's faults are listed, not failures.
      expect(report.cases.filter((c) => c.side === 'client' && c.outcome === 'failed')).toEqual([]);
      expect(report.cases.some((c) => c.side === 'client' && c.reason?.startsWith('not judged: --side server'))).toBe(
        true,
      );
      const recorded = readFileSync(har, 'utf8');
      const outputs = allOutputs(report);
      for (const secret of [KEY, COOKIE, URL_KEY, TENANT]) {
        expect(recorded).toContain(secret);
        expect(outputs).not.toContain(secret);
      }
    } finally {
      await fake.close();
    }
  }, 60_000);
});
