/**
 * The browser example as a person sees it: built with Vite (MSW's worker
 * copied in), served by Vite's preview server on a free port, and driven in
 * headless Chromium (Debian's, through playwright-core). The page must list
 * the seeded pets, add one, and show the error a control scenario forces; the
 * screenshot stays in artifacts/browser/ (gitignored) for a reader to look at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedPets } from '../mock/core/seed.ts';
import { launchChromium } from './support/chromium.ts';
import { ROOT } from './support/processes.ts';
import { readmeExamples } from './support/readme-examples.ts';

const CONFIG = join(ROOT, 'examples', 'browser', 'vite.config.ts');
const ARTIFACTS = join(ROOT, 'artifacts', 'browser');

let server: PreviewServer | undefined;
let browser: Browser | undefined;
let url = '';

beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'petstore-browser-example-'));
  await build({ configFile: CONFIG, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  server = await preview({
    configFile: CONFIG,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true },
  });
  url = server.resolvedUrls!.local[0]!;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('lists the seeded pets, adds one, and shows the error a scenario forces', async () => {
  const page = await browser!.newPage({ viewport: { width: 900, height: 720 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);

  const seeded = seedPets({ seed: 42, count: 8 });
  const rows = page.locator('#pets tr');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(8);
  expect(await page.locator('#pets tr td:nth-child(2)').allTextContents()).toEqual(seeded.map((p) => p.name));
  await expect.poll(() => page.locator('#mock-state').textContent()).toMatch(/service worker/);
  // Answered by MSW's worker, not by the preview server (which has no /v1 and would 404).
  expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(`${url}mockServiceWorker.js`);

  await page.fill('input[name=name]', 'Rex the browser dog');
  await page.fill('input[name=categoryId]', '3');
  await page.selectOption('select[name=status]', 'available');
  await page.click('button[type=submit]');
  await expect.poll(() => rows.count()).toBe(9);
  expect(await page.locator('#pets tr.created td').allTextContents()).toEqual([
    '9',
    'Rex the browser dog',
    '3',
    'available',
  ]);

  // The error state, forced the way an end-to-end test does it: a control scenario, posted from the page to the
  // mock in its service worker, makes the next list answer 503; the one after is served normally again.
  const added = await page.evaluate(async () => {
    const scenario = { method: 'GET', path: '/v1/pets', status: 503, times: 1 };
    const response = await fetch('/__control/scenarios', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(scenario),
    });
    return response.status;
  });
  expect(added).toBe(201);
  await page.click('#reload');
  const alert = page.locator('[role=alert]');
  await expect.poll(() => alert.textContent()).toMatch(/^Could not load pets: 503 service_unavailable: /);
  expect(await rows.count()).toBe(9);

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'petstore-example.png'), fullPage: true });
  // The scenario said once: the next reload is answered normally again.
  await page.click('#reload');
  await expect.poll(() => alert.textContent()).toBe('');
  expect(await rows.count()).toBe(9);
  expect(pageErrors).toEqual([]);
}, 60_000);

it("runs the README's MSW example as written, in a page: the app's fetch('/v1/pets') is answered by the mock", async () => {
  // The app: the README's block, then what an app would do next. Inside the repository, so `msw/browser` resolves.
  const app = mkdtempSync(join(ROOT, 'artifacts', 'readme-msw-'));
  const outDir = join(app, 'dist');
  let readmeServer: PreviewServer | undefined;
  try {
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html><title>README</title><script type="module" src="./main.ts"></script>',
    );
    const next = `
const res = await fetch('/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } });
document.title = JSON.stringify({ status: res.status, pets: (await res.json()).length });`;
    writeFileSync(join(app, 'main.ts'), readmeExamples().msw + next);
    const { config } = await import('../examples/browser/vite.config.ts');
    const own = { ...config, configFile: false as const, root: app, logLevel: 'silent' as const };
    await build({ ...own, build: { outDir, emptyOutDir: true, target: 'es2022' } });
    readmeServer = await preview({
      ...own,
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: true },
    });
    const page = await browser!.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(readmeServer.resolvedUrls!.local[0]!);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(JSON.stringify({ status: 200, pets: 8 }));
    expect(pageErrors).toEqual([]);
  } finally {
    await readmeServer?.close();
    rmSync(app, { recursive: true, force: true });
  }
}, 60_000);
