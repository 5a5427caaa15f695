/**
 * The suite against a conforming staging that is slow or rate-limited, through
 * the CLI: every 7th request answered 429 `Retry-After: 1` is waited out and
 * counted apart (exit 0); a Retry-After beyond the wait budget leaves the
 * cases it hit not judged, throttled, never failed (exit 2 with the hint); `--rate` spaces requests; a server
 * 150 ms away passes. Also `--list`, and the progress line: on a terminal
 * only, never in CI or a pipe.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allCases } from '../../conformance/cases/index.ts';
import { generatedProperties } from '../../conformance/generate/catalog.ts';
import { type FakePetstore, startFakePetstore } from '../../conformance/test/fake-petstore.ts';
import type { Report } from '../../conformance/types.ts';
import { type Ran, runProcess, tsxEntry } from '../support/processes.ts';

const KEY = 'staging-key-2b9d';
let dir = '';
let fake: FakePetstore | undefined;

beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'suite-staging-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, CI: _ci, ...rest } = process.env;
  return runProcess([...tsxEntry('conformance/cli.ts'), ...args], {
    env: { ...rest, NO_COLOR: '1', PETSTORE_API_KEY: KEY, ...env },
  });
}

const lastLine = (text: string): string | undefined => text.trimEnd().split('\n').at(-1);

describe('a conforming staging that rate-limits', () => {
  it('every 7th request 429 Retry-After: 1: waited out, counted apart, exit 0', async () => {
    fake = await startFakePetstore({ apiKey: KEY, rateLimit: { every: 7, retryAfter: '1' } });
    const json = join(dir, 'limited.json');
    const run = await cli(['--base-url', fake.url, '--reporter', 'pretty', '--reporter', `json=${json}`]);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(run.stderr).toBe('');
    expect(lastLine(run.stdout)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const limited = Math.floor(fake.requests.length / 7);
    expect(limited).toBeGreaterThan(5);
    expect(report.throttling).toMatchObject({ byStatus: { 429: limited }, retried: limited, exhausted: 0 });
    expect(report.throttling.waitedMs).toBeGreaterThanOrEqual(1000);
    expect(run.stdout).toMatch(
      new RegExp(
        `^The server asked the suite to wait ${limited} × 429 \\(Retry-After\\): ${limited} retried, [\\d.]+ s waited of the 60 s budget$`,
        'm',
      ),
    );
    // The retries overlap: well under one second per 429, and no hang.
    expect(run.durationMs).toBeLessThan(limited * 1000 + 10_000);
  });

  it('a Retry-After beyond the --max-wait budget leaves the cases it hit not judged (throttled), never failed: exit 2 with the hint', async () => {
    fake = await startFakePetstore({ apiKey: KEY, rateLimit: { every: 5, retryAfter: '30' } });
    const json = join(dir, 'spent.json');
    const run = await cli(['--base-url', fake.url, '--max-wait', '2s', '--reporter', `json=${json}`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^petstore-conformance: \d+ required case\(s\) could not be judged: the server kept answering 429\/503 past the --max-wait budget; spread the run with --rate N or give it a larger --max-wait$/,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    const throttled = report.cases.filter((c) => c.reason?.startsWith('not judged: throttled'));
    expect(throttled.length).toBeGreaterThan(0);
    expect(report.ok).toBe(false);
    for (const c of throttled)
      expect(c.reason).toMatch(
        /^not judged: throttled: 429: the server asked the suite to wait \(Retry-After: 30\) and the wait budget \(--max-wait 2 s\) has 2 s left.*--rate N/,
      );
    // Every 429 is given up on at once (30 s is beyond the budget). Not one per failed case: the run's shared
    // create and listing serve several cases, so one 429 there fails each of them, as the order of requests falls.
    const limited = Math.floor(fake.requests.length / 5);
    expect(limited).toBeGreaterThan(0);
    expect(report.throttling).toMatchObject({
      byStatus: { 429: limited },
      retried: 0,
      waitedMs: 0,
      exhausted: limited,
    });
    // Nothing waited: a 30 s Retry-After that the budget cannot cover is not slept on.
    expect(run.durationMs).toBeLessThan(20_000);
  });

  it('--rate 20 spaces the requests out (at least 50 ms apart)', async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    const run = await cli(['--base-url', fake.url, '--rate', '20', '--only', 'listPets', '--reporter', 'json']);
    expect(run.code).toBe(0);
    const n = fake.requests.length;
    expect(n).toBeGreaterThan(10);
    expect(run.durationMs).toBeGreaterThanOrEqual((n - 1) * 50);
  });
});

describe('a conforming server 150 ms away', () => {
  it('passes (the wall time is measured by hand through the built CLI: see docs/conformance.md)', async () => {
    fake = await startFakePetstore({ apiKey: KEY, latencyMs: 150 });
    const run = await cli(['--base-url', fake.url]);
    expect(run.code, run.stdout.slice(-2000)).toBe(0);
    expect(lastLine(run.stdout)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/);
  });
});

describe('--list', () => {
  it('prints every case with its level, operation and section; as JSON too; and runs nothing', async () => {
    const cases = allCases();
    const text = await cli(['--list']);
    expect(text.code).toBe(0);
    for (const c of cases)
      expect(text.stdout).toMatch(new RegExp(`^${c.id.replace(/\./g, '\\.')} +${c.level} +${c.operationId} +`, 'm'));
    const generated = generatedProperties();
    for (const c of generated)
      expect(text.stdout).toMatch(new RegExp(`^${c.id.replace(/\./g, '\\.')} +${c.level} +`, 'm'));
    expect(lastLine(text.stdout)).toBe(
      `${cases.length} cases, ${generated.length} generated checks (run with --generate N)`,
    );
    const json = await cli(['--list', '--json', '--only', 'auth']);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as { id: string; level: string; operationId: string; section: string }[];
    expect(listed.map((c) => c.id)).toEqual(cases.filter((c) => c.id.startsWith('auth.')).map((c) => c.id));
    for (const c of listed) expect(c.section.length).toBeGreaterThan(0);
    const typo = await cli(['--list', '--only', 'nosuch']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^petstore-conformance: --only nosuch matches no case/);
  });

  it('selects generated checks the same way as a run does', async () => {
    const only = await cli(['--list', '--json', '--only', 'generated', '--skip', 'generated.createPet']);
    expect(only.code, only.stderr).toBe(0);
    const expected = generatedProperties()
      .map((c) => c.id)
      .filter((id) => !id.startsWith('generated.createPet.'));
    expect((JSON.parse(only.stdout) as { id: string }[]).map((c) => c.id)).toEqual(expected);
    fake = await startFakePetstore({ apiKey: KEY });
    const args = ['--only', 'generated.*.no5xx', '--skip', 'generated.createPet'];
    const listed = await cli(['--list', '--json', ...args]);
    const run = await cli(['--base-url', fake.url, '--generate', '3', '--reporter', 'json', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const ran = (JSON.parse(run.stdout) as { cases: { id: string }[] }).cases.map((c) => c.id);
    expect(ran).toEqual((JSON.parse(listed.stdout) as { id: string }[]).map((c) => c.id));
    expect(ran).toEqual(['generated.listPets.no5xx', 'generated.getPet.no5xx']);
  });
});

/** Runs the CLI with a pseudo-terminal for stdin, stdout and stderr (util-linux `script`); returns what the terminal showed. */
function onTerminal(args: string[], env: Record<string, string>): Promise<Ran> {
  const command = [...tsxEntry('conformance/cli.ts'), ...args].map((a) => `'${a}'`).join(' ');
  const { CI: _ci, ...rest } = process.env;
  return runProcess(['script', '-qefc', command, '/dev/null'], { env: { ...rest, ...env } });
}

describe('the progress line', () => {
  it('is drawn on a terminal, never in CI or when stderr is not a TTY', async () => {
    fake = await startFakePetstore({ apiKey: KEY, latencyMs: 20 });
    const total = allCases().length;
    const env = { PETSTORE_API_KEY: KEY, NO_COLOR: '1', TERM: 'xterm' };
    const tty = await onTerminal(['--base-url', fake.url], env);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(`\r\u001b[2Kpetstore-conformance: ${total}/${total} cases, 0 failed`);
    // Erased before the report: the report's first line starts clean.
    expect(tty.stdout).toMatch(/\r\u001b\[2K(\r\n)?Petstore conformance: /);
    const ci = await onTerminal(['--base-url', fake.url], { ...env, CI: 'true' });
    expect(ci.code).toBe(0);
    expect(ci.stdout).not.toContain('cases, 0 failed');
    const piped = await cli(['--base-url', fake.url]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('\u001b');
  });
});
