/**
 * A HAR built from Chromium's DevTools protocol: the Network and Page events a
 * page's calls to the mock raise (Debian's Chromium, through a CDP session),
 * turned into HAR by chrome-har, as browsertime and sitespeed.io do; with the
 * response bodies (Network.getResponseBody) and without them. The judge must
 * name the client's fault and the answer a scenario forced, and leave the
 * body checks not judged when no body was recorded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harFromMessages } from 'chrome-har';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { judgeTraffic } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { launchChromium } from './support/chromium.ts';
import { callFromPage, startPageServer } from './support/record-har.ts';

const KEY = 'sk-devtools-recorded-4242';
const EVENTS = [
  'Page.loadEventFired',
  'Page.domContentEventFired',
  'Page.frameStartedLoading',
  'Page.frameAttached',
  'Page.frameScheduledNavigation',
  'Network.requestWillBeSent',
  'Network.requestServedFromCache',
  'Network.dataReceived',
  'Network.responseReceived',
  'Network.resourceChangedPriority',
  'Network.loadingFinished',
  'Network.loadingFailed',
];

let browser: Browser;
let mock: MockServer;
let pages: Awaited<ReturnType<typeof startPageServer>>;
const dir = mkdtempSync(join(tmpdir(), 'petstore-devtools-'));

beforeAll(async () => {
  mock = await startMockServer({ count: 3, apiKeys: [KEY] });
  pages = await startPageServer('Devtools page');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Records the page's calls through the DevTools protocol and writes the HAR chrome-har builds from the events. */
async function recordThroughDevtools(path: string, withBodies: boolean): Promise<void> {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  const messages: { method: string; params: Record<string, unknown> }[] = [];
  const bodies: Promise<void>[] = [];
  for (const method of EVENTS)
    cdp.on(method as 'Network.requestWillBeSent', (params: unknown) => {
      const message = { method, params: params as Record<string, unknown> };
      messages.push(message);
      if (withBodies && method === 'Network.loadingFinished') {
        const requestId = (params as { requestId: string }).requestId;
        bodies.push(
          cdp
            .send('Network.getResponseBody', { requestId })
            .then(({ body }) => {
              const received = messages.find(
                (m) => m.method === 'Network.responseReceived' && m.params.requestId === requestId,
              );
              if (received) (received.params.response as { body?: string }).body = body;
            })
            .catch(() => {}),
        );
      }
    });
  await cdp.send('Page.enable');
  await cdp.send('Network.enable');
  await page.goto(pages.url);
  const auth = { authorization: `Bearer ${KEY}` };
  await callFromPage(page, [
    { url: `${mock.url}/pets?limit=2`, headers: auth },
    { url: `${mock.url}/pets?limit=0`, headers: auth },
    { url: `${mock.url}/pets?limit=3`, headers: auth },
  ]);
  await Promise.all(bodies);
  await page.close();
  const har = harFromMessages(messages, { includeTextFromResponseBody: withBodies });
  writeFileSync(path, JSON.stringify(har));
}

it.each([true, false])(
  'judges a HAR built from DevTools protocol events (bodies: %s)',
  async (withBodies) => {
    const har = join(dir, `devtools-${withBodies}.har`);
    mock.scenarios.add({ method: 'GET', path: '/v1/pets', status: 404, times: 1 });
    await recordThroughDevtools(har, withBodies);
    const report = await judgeTraffic({ files: [har], baseUrl: mock.url });
    const causes = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`);
    expect(causes).toContainEqual(
      expect.stringMatching(/^server .*GET \/v1\/pets answers 404 where the contract requires 200 or 401/),
    );
    expect(causes).toContainEqual(expect.stringMatching(/^client .*limit="0" is not an integer/));
    const notJudged = report.cases.flatMap((c) => c.checks).filter((k) => k.message === 'not judged: no body recorded');
    expect(notJudged.length > 0).toBe(!withBodies);
    expect(JSON.stringify(report)).not.toContain(KEY);
  },
  60_000,
);
