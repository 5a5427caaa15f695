/**
 * HAR files recorded by a real browser for the traffic tests: Debian's
 * Chromium through playwright-core, `recordHar` in a content mode, on a page
 * served from one loopback origin (or the API's own) whose script calls the API.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';

/** A page server on 127.0.0.1, port 0: every path answers a blank page titled `title`. */
export async function startPageServer(title: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>${title}</title><p>${title}</p>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One call the page makes: method, URL, headers and body, as `fetch` takes them. */
export interface PageCall {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Makes each call, in order (each awaited), and returns the statuses (0 when one failed). It runs in a page, so it
 * travels as its source: it uses nothing from outside itself.
 */
export async function callEach(list: readonly PageCall[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const c of list) {
    try {
      const res = await fetch(c.url, { method: c.method ?? 'GET', headers: c.headers ?? {}, body: c.body ?? null });
      await res.text();
      statuses.push(res.status);
    } catch {
      statuses.push(0);
    }
  }
  return statuses;
}

/** {@link callEach} in `page`. */
export function callFromPage(page: Page, calls: readonly PageCall[]): Promise<number[]> {
  return page.evaluate(callEach, calls as PageCall[]);
}

/**
 * Records a HAR with Playwright's `recordHar` (`content` mode embed, attach or omit) while `act` drives a page
 * opened at `pageUrl`; the HAR is written when the context closes.
 */
export async function recordHar(
  browser: Browser,
  options: { path: string; content: 'embed' | 'attach' | 'omit'; pageUrl: string },
  act: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ recordHar: { path: options.path, content: options.content } });
  const page = await context.newPage();
  await page.goto(options.pageUrl);
  await act(page);
  await context.close();
}
