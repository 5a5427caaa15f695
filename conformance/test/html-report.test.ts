/**
 * The HTML report as QA opens it: written by the CLI (`--reporter html=FILE`)
 * against a fake that breaks two rules and echoes the key, then opened from
 * disk in headless Chromium (Debian's, driven by playwright-core). The test
 * reads what the page shows, checks that it loads nothing from anywhere, and
 * keeps a screenshot in reports/test-artifacts/ (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../spec/index.ts';
import { launchChromium } from '../../test/support/chromium.ts';
import { ROOT, runProcess, tsxEntry } from '../../test/support/processes.ts';
import { startFakePetstore } from './fake-petstore.ts';

const KEY = 'html-report-key-93af';
const ARTIFACTS = join(ROOT, 'reports', 'test-artifacts');
const FILE = join(ARTIFACTS, 'conformance-report.html');

let browser: Browser;

/** The text as rendered, as QA reads it (textContent would include what CSS hides). */
const shown = (locator: Locator): Promise<string> => locator.innerText();
let exitCode: number | null;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const fake = await startFakePetstore({
    apiKey: KEY,
    violations: ['basicAccepted', 'errorStatusMismatch'],
    choices: { echoAuthorization: true },
  });
  try {
    const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...env } = process.env;
    const run = await runProcess(
      [...tsxEntry('conformance/cli.ts'), '--base-url', fake.url, '--reporter', `html=${FILE}`],
      { env: { ...env, PETSTORE_API_KEY: KEY } },
    );
    exitCode = run.code;
  } finally {
    await fake.close();
  }
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the HTML report in a browser', () => {
  it('shows the verdict, the status matrix, each failure with checks, curl and body, never the key', async () => {
    expect(exitCode).toBe(1);
    const html = readFileSync(FILE, 'utf8');
    expect(html).not.toContain(KEY);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requested: string[] = [];
    page.on('request', (r) => void requested.push(r.url()));
    await page.goto(pathToFileURL(FILE).href);

    // Self-contained: the page asked for nothing but itself.
    expect(requested).toEqual([pathToFileURL(FILE).href]);
    await expect(shown(page.locator('header .badge'))).resolves.toBe('FAILED');
    const summary = await shown(page.locator('header .summary'));
    expect(summary).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
    expect(await shown(page.locator('.card.failed b'))).toBe(summary.match(/(\d+) failed/)![1]);

    // The matrix: one row per operation, a column per documented status, every documented cell filled.
    const operations = listOperations();
    const rows = page.locator('table.matrix tbody tr');
    await expect(rows.count()).resolves.toBe(operations.length);
    for (const [i, op] of operations.entries()) {
      await expect(shown(rows.nth(i).locator('th'))).resolves.toContain(op.operationId);
      await expect(rows.nth(i).locator('td.hit, td.warn, td.miss').count()).resolves.toBe(op.statuses.length);
    }
    // A cell's colour follows its cases' outcomes: red exactly where a case that got the status failed, or none did.
    for (const text of await page.locator('table.matrix td.miss').allInnerTexts())
      expect(text).toMatch(/failed|not covered/);
    for (const text of await page.locator('table.matrix td.hit').allInnerTexts()) expect(text).not.toMatch(/failed/);

    // A failure: its failed check, the curl line with the credentials hidden, the status and the body excerpt.
    const basic = page.locator('article.case.failed[id="auth.listPets.basic"]');
    await expect(shown(basic.locator('.checks li.ko').first())).resolves.toMatch(/✗ status: expected 401, got 200/);
    await expect(shown(basic.locator('pre.curl').first())).resolves.toMatch(
      /^\$ curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' -H 'Accept: application\/json' -H 'Authorization: Basic \[REDACTED\]'$/,
    );
    await expect(shown(basic.locator('.status b').first())).resolves.toBe('200');
    await expect(shown(basic.locator('pre.body').first())).resolves.toMatch(/^\[\{"id":1,"name":"pet-0"/);
    // An Error whose status disagrees with HTTP's, from a server that echoes the Authorization it got.
    const unknown = page.locator('article.case.failed[id="getPet.unknown"]');
    await expect(shown(unknown.locator('.checks li.ko').first())).resolves.toMatch(
      /✗ Error status: Error\.status \d+, HTTP status 404/,
    );
    await expect(shown(unknown.locator('pre.body').first())).resolves.toMatch(
      /^\{"echo":"Bearer \[REDACTED\]","code":/,
    );

    const text = await shown(page.locator('body'));
    expect(text).not.toContain(KEY);
    expect(text).toContain('Failures');
    await page.screenshot({ path: join(ARTIFACTS, 'conformance-report.png'), fullPage: false });
    await page.locator(`[id="getPet.unknown"]`).screenshot({ path: join(ARTIFACTS, 'conformance-report-failure.png') });
    await page.close();
  }, 60_000);
});
