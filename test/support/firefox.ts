/**
 * A HAR written by Firefox itself: Debian's Firefox ESR, headless, in a throwaway profile whose prefs turn on the
 * netmonitor's HAR auto-export (`devtools.netmonitor.har.enableAutoExportToFile`, its HarAutomation and
 * HarBuilder), with the toolbox opened at start (`--devtools`), which the auto-export needs. Firefox writes one HAR
 * per page load, once the page has been quiet for `pageLoadedTimeout`. The toolbox opens a while after the first
 * page, so the page server serves a page that reloads itself until the first HAR shows up (the auto-export is
 * then running), and only then the page that makes the calls; the HAR wanted is the one holding its last request.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { spawnProcess } from './processes.ts';
import { callEach, type PageCall } from './record-har.ts';

/** The Firefox the test runs: Debian's firefox-esr, or `FIREFOX_PATH`. */
export const FIREFOX = process.env.FIREFOX_PATH ?? 'firefox-esr';

/** Firefox's version line (`Mozilla Firefox 153.7.0esr`), or undefined when it cannot run here. */
export function firefoxVersion(): string | undefined {
  const run = spawnSync(FIREFOX, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Quiet time after the last request before Firefox writes a page's HAR (its default is 1500 ms). */
const PAGE_LOADED_MS = 800;

/** The prefs of the throwaway profile: the HAR auto-export on, and none of Firefox's own background traffic. */
function userJs(harDir: string, includeResponseBodies: boolean): string {
  const prefs: Record<string, string | number | boolean> = {
    'devtools.netmonitor.har.enableAutoExportToFile': true,
    'devtools.netmonitor.har.defaultLogDir': harDir,
    'devtools.netmonitor.har.defaultFileName': 'firefox',
    'devtools.netmonitor.har.pageLoadedTimeout': PAGE_LOADED_MS,
    'devtools.netmonitor.har.includeResponseBodies': includeResponseBodies,
    'devtools.toolbox.selectedTool': 'netmonitor',
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.homepage_override.mstone': 'ignore',
    'browser.aboutwelcome.enabled': false,
    'browser.safebrowsing.malware.enabled': false,
    'browser.safebrowsing.phishing.enabled': false,
    'browser.safebrowsing.downloads.enabled': false,
    'app.update.disabledForTesting': true,
    'app.normandy.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'datareporting.healthreport.uploadEnabled': false,
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'extensions.update.enabled': false,
    'services.settings.server': 'http://127.0.0.1:9/',
  };
  return Object.entries(prefs)
    .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`)
    .join('');
}

/** JSON safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The page that makes the calls in order and posts their statuses back to its own server. Its image is answered only
 * once the statuses are in, so the page's load (when Firefox starts waiting for quiet) comes after every call, however
 * slow the machine: no gap between two calls can end the HAR early.
 */
function callsPage(title: string, calls: readonly PageCall[]): string {
  return `<!doctype html><title>${title}</title><img src="/hold" alt=""><script>
(async () => {
  const statuses = await (${callEach.toString()})(${scriptJson(calls)});
  await fetch('/statuses', { method: 'POST', body: JSON.stringify(statuses) });
})();
</script>`;
}

const WAITING_PAGE = `<!doctype html><title>waiting</title><script>setTimeout(() => location.replace('/'), ${PAGE_LOADED_MS + 700});</script>`;

/** What {@link recordFirefoxHar} returns. */
export interface FirefoxHar {
  /** The HAR file Firefox wrote for the page that made the calls. */
  har: string;
  /** The status each call got, as the page saw it (0 when it failed). */
  statuses: number[];
  /** The page's URL (its server is closed by then). */
  pageUrl: string;
}

function holdsLastRequest(file: string, pageUrl: string): boolean {
  try {
    const log = JSON.parse(readFileSync(file, 'utf8')).log;
    return log.entries.some(
      (e: { request: { method: string; url: string } }) =>
        e.request.method === 'POST' && e.request.url === `${pageUrl}statuses`,
    );
  } catch {
    return false; // not yet written whole
  }
}

/**
 * Starts Firefox headless in a new profile under `dir` on a page (title `title`) that makes `calls`, and returns the
 * HAR Firefox wrote of them. Rejects, with Firefox's output, when no such HAR appears within `timeoutMs`.
 */
export async function recordFirefoxHar(options: {
  dir: string;
  title: string;
  calls: readonly PageCall[];
  includeResponseBodies?: boolean;
  timeoutMs?: number;
}): Promise<FirefoxHar> {
  const profile = join(options.dir, 'profile');
  const home = join(options.dir, 'home');
  const harDir = join(options.dir, 'har');
  for (const d of [profile, home, harDir]) mkdirSync(d, { recursive: true });
  writeFileSync(join(profile, 'user.js'), userJs(harDir, options.includeResponseBodies ?? true));
  let served = false;
  let statuses: number[] | undefined;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/statuses') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk.slice(0, 10_000)));
      req.on('end', () => {
        statuses = JSON.parse(body) as number[];
        res.writeHead(204).end();
        release();
      });
      return;
    }
    if (req.url === '/hold') return void released.then(() => res.writeHead(204).end());
    if (req.url !== '/') return void res.writeHead(404).end();
    res.setHeader('content-type', 'text/html');
    // A HAR written: the auto-export runs, and the next page load is recorded whole.
    if (!served && readdirSync(harDir).length > 0) {
      served = true;
      return void res.end(callsPage(options.title, options.calls));
    }
    res.end(served ? '<!doctype html><title>done</title>' : WAITING_PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const firefox = spawnProcess([FIREFOX, '--headless', '--no-remote', '--devtools', '--profile', profile, pageUrl], {
    env: { ...process.env, HOME: home, MOZ_HEADLESS: '1', MOZ_CRASHREPORTER_DISABLE: '1' },
    detached: true,
  });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  try {
    for (;;) {
      const found = statuses
        ? readdirSync(harDir)
            .map((name) => join(harDir, name))
            .find((file) => holdsLastRequest(file, pageUrl))
        : undefined;
      if (found && statuses) return { har: found, statuses, pageUrl };
      if (firefox.child.exitCode !== null || Date.now() > deadline)
        throw new Error(
          `Firefox wrote no HAR of the calls (${statuses ? 'calls made' : served ? 'calls not finished' : 'no HAR written at all'}):\n${firefox.stderr()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    release();
    const timer = setTimeout(() => void firefox.stop('SIGKILL'), 5_000);
    await firefox.stop('SIGTERM');
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}
