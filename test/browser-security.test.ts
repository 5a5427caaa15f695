/**
 * What a page in a real browser can do to the mock on a port (headless
 * Chromium). A page on another site can neither read the journal nor change
 * state, not even with a simple `no-cors` POST that needs no preflight; a
 * DNS-rebinding page (the attacker's name resolving to 127.0.0.1) gets 403 for
 * its same-origin requests; a page on an origin the mock grants still works.
 * Chromium maps the test names to 127.0.0.1 (--host-resolver-rules).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { launchChromium } from './support/chromium.ts';

const KEY = 'browser-security-key';
let mock: MockServer;
let granted: MockServer;
let pages: Server;
let pagePort = 0;
let browser: Browser;

beforeAll(async () => {
  mock = await startMockServer({ count: 3, apiKeys: [KEY] });
  // A blank page on any name: the site the developer happens to visit.
  pages = createServer((_req, res) => res.end('<!doctype html><title>a page</title>'));
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  pagePort = (pages.address() as AddressInfo).port;
  granted = await startMockServer({ count: 3, apiKeys: [KEY], corsOrigins: [`http://app.test:${pagePort}`] });
  browser = await launchChromium({ args: ['--host-resolver-rules=MAP evil.test 127.0.0.1, MAP app.test 127.0.0.1'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  await granted?.close();
  pages?.close();
});

async function open(url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

/** What a fetch from the page gives: its status, or the name of the error the browser raised. */
function fetchFrom(page: Page, url: string, init: RequestInit = {}): Promise<number | string> {
  return page.evaluate(
    async ([url, init]) => {
      try {
        return (await fetch(url, init)).status;
      } catch (error) {
        return (error as Error).name;
      }
    },
    [url, init] as const,
  );
}

it('a page on another site can neither read the journal nor change the mock', async () => {
  await fetch(`${mock.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
  const page = await open(`http://evil.test:${pagePort}/`);
  const control = `${mock.origin}/__control`;
  expect(await fetchFrom(page, `${control}/requests`)).toBe('TypeError');
  const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fault":"hang"}' };
  expect(await fetchFrom(page, `${control}/scenarios`, json)).toBe('TypeError');
  // The attack of the issue: a simple POST, no preflight, answer unread: it used to add the scenario.
  const simple = {
    method: 'POST',
    mode: 'no-cors',
    headers: { 'content-type': 'text/plain' },
    body: '{"fault":"hang"}',
  };
  expect(await fetchFrom(page, `${control}/scenarios`, simple as RequestInit)).toBe(0);
  expect(await fetchFrom(page, `${control}/reset`, { method: 'POST', mode: 'no-cors' })).toBe(0);
  const put = { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[]' };
  expect(await fetchFrom(page, `${control}/pets`, put)).toBe('TypeError');
  // The API with the key: the preflight for Authorization is refused.
  expect(await fetchFrom(page, `${mock.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).toBe('TypeError');
  expect(mock.scenarios.list()).toEqual([]);
  expect(mock.pets.size).toBe(3);
  expect(mock.requests()).toHaveLength(1);
  await page.close();
}, 30_000);

it('a DNS-rebinding page (its own name at 127.0.0.1) gets 403 for its same-origin requests', async () => {
  const page = await browser.newPage();
  const port = new URL(mock.origin).port;
  const landing = await page.goto(`http://evil.test:${port}/__control/health`);
  expect(landing?.status()).toBe(403);
  expect(await page.textContent('body')).toContain('--allowed-hosts');
  expect(await fetchFrom(page, '/__control/requests')).toBe(403);
  const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fault":"hang"}' };
  expect(await fetchFrom(page, '/__control/scenarios', json)).toBe(403);
  expect(mock.scenarios.list()).toEqual([]);
  await page.close();
}, 30_000);

it('a page on a loopback origin uses the API; a page on a granted origin drives the control endpoints too', async () => {
  const local = await open(`http://127.0.0.1:${pagePort}/`);
  expect(await fetchFrom(local, `${mock.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).toBe(200);
  expect(await fetchFrom(local, `${mock.origin}/__control/requests`)).toBe('TypeError');
  await local.close();
  const app = await open(`http://app.test:${pagePort}/`);
  const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":503,"times":1}' };
  expect(await fetchFrom(app, `${granted.origin}/__control/scenarios`, json)).toBe(201);
  expect(await fetchFrom(app, `${granted.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).toBe(503);
  expect(await fetchFrom(app, `${granted.origin}/__control/requests`)).toBe(200);
  expect(granted.scenarios.list()).toEqual([]);
  await app.close();
}, 30_000);
