/**
 * The API key never reaches a report: a target that echoes it back in bodies
 * and headers, in every spelling (verbatim, JSON-escaped, URL-encoded with
 * upper or lower-case hex, every byte percent-encoded, base64 of the key and of `Bearer KEY`, base64url,
 * `\u` escapes, HTML character references, as a JSON key), leaves no trace of it in
 * the output of any reporter (the har one given the run's exchange log), in-process or through the CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/index.ts';
import { renderCurl } from '../../conformance/report/format.ts';
import { REPORTERS, render } from '../../conformance/report/index.ts';
import { runProcess, tsxEntry } from '../support/processes.ts';
import { type HostileTarget, keySpellings, lowerHexSpelling, startHostileTarget } from './support/hostile-targets.ts';

/** Characters that JSON, URL and XML escaping all change. */
const KEY = 'sk_Test-9/Qx+R=z&"<k3y>~';

let target: HostileTarget;
beforeEach(async () => {
  target = await startHostileTarget('echoKey', KEY);
});
afterEach(() => target.close());

/** Every way `text` could still carry the key; empty when it carries none. */
function traces(text: string, key: string): string[] {
  const xml = key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const forms = [
    ...keySpellings(key),
    lowerHexSpelling(key),
    xml,
    Buffer.from(`conformance:${key}`).toString('base64'),
  ];
  // The characters of base64 that carry only the key's bytes, whatever it is embedded in (Bearer KEY, user:KEY).
  for (const pad of ['', 'a', 'ab']) {
    const start = Math.ceil((pad.length * 8) / 6);
    const end = Math.floor(((pad.length + Buffer.byteLength(key)) * 8) / 6);
    const core = Buffer.from(pad + key)
      .toString('base64')
      .slice(start, end);
    forms.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  const found = forms.filter((form) => text.includes(form));
  // Undo percent, JSON and XML escaping, then look again.
  const unescaped = text
    .replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(["\\/])/g, '$1')
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_m, dec: string) => String.fromCharCode(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  if (unescaped.includes(key)) found.push('(after unescaping)');
  return found;
}

describe('for any key, in every form, in every reporter (property)', () => {
  // Visible ASCII: what an Authorization header can carry.
  const visible = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
  const anyKey = fc.string({ unit: visible, minLength: 8, maxLength: 24 });

  it('no output of a run against a server echoing the key in every spelling carries any of them', async () => {
    await fc.assert(
      fc.asyncProperty(anyKey, async (key) => {
        const echo = await startHostileTarget('echoKey', key);
        try {
          const report = await runConformance({
            baseUrl: echo.url,
            apiKey: key,
            timeoutMs: 2_000,
            exchangeLog: true,
            only: ['listPets.ok', 'auth.listPets.wrongKey', 'createPet.full', 'getPet.unknown'],
          });
          expect(report.cases.length).toBe(4);
          for (const reporter of REPORTERS)
            expect(
              traces(render(reporter, report, { color: false }), key),
              `${reporter} ${JSON.stringify(key)}`,
            ).toEqual([]);
        } finally {
          await echo.close();
        }
      }),
      { numRuns: 12 },
    );
  }, 60_000);
});

describe('the API key in reports, against a server that echoes it', () => {
  it('the echo target really does echo the key (so the test can fail)', async () => {
    const response = await fetch(`${target.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
    const text = `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${await response.text()}`;
    expect(traces(text, KEY)).toEqual(
      expect.arrayContaining([
        KEY,
        encodeURIComponent(KEY),
        Buffer.from(KEY).toString('base64'),
        JSON.stringify(KEY).slice(1, -1),
      ]),
    );
    const lower = await startHostileTarget('echoKeyLowerHex', KEY);
    try {
      const echoed = await fetch(`${lower.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) =>
        r.text(),
      );
      expect(traces(echoed, KEY)).toContain(lowerHexSpelling(KEY));
    } finally {
      await lower.close();
    }
  });

  it('shows the wrong key the auth cases send as sent (no secret), so their curl lines reproduce the request', async () => {
    const report = await runConformance({
      baseUrl: target.url,
      apiKey: KEY,
      timeoutMs: 2_000,
      runId: 'wk1',
      only: ['auth'],
    });
    const sent = (id: string) =>
      report.cases.find((c) => c.id === id)?.exchanges.map((ex) => ex.request.headers.authorization);
    expect(sent('auth.listPets.wrongKey')).toContain('Bearer conformance-wk1-wrong-key');
    expect(sent('auth.listPets.emptyToken')).toContain('Bearer ');
    // What carries the key is still hidden: the Basic credentials.
    expect(sent('auth.listPets.basic')).toContain('Basic [REDACTED]');
    const wrong = report.cases.find((c) => c.id === 'auth.listPets.wrongKey')!.exchanges.at(-1)!;
    expect(renderCurl(wrong.request)).toContain("-H 'Authorization: Bearer conformance-wk1-wrong-key'");
  });

  it.each(REPORTERS)('%s output from runConformance carries no trace of it', async (reporter) => {
    const report = await runConformance({ baseUrl: target.url, apiKey: KEY, timeoutMs: 2_000, exchangeLog: true });
    expect(report.cases.length).toBeGreaterThan(50);
    expect(report.exchangeLog?.exchanges.length).toBeGreaterThan(50);
    for (const color of [false, true]) expect(traces(render(reporter, report, { color }), KEY)).toEqual([]);
  });

  it('the CLI writes pretty to stdout and every reporter to a file with no trace of it, key given by flag or variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-redaction-'));
    try {
      const { PETSTORE_BASE_URL: _url, PETSTORE_API_KEY: _key, ...env } = process.env;
      for (const [how, args, extraEnv] of [
        ['flag', ['--api-key', KEY], {}],
        ['variable', [], { PETSTORE_API_KEY: KEY }],
      ] as const) {
        const { code, stdout, stderr } = await runProcess(
          [
            ...tsxEntry('conformance/cli.ts'),
            '--base-url',
            target.url,
            '--timeout',
            '2s',
            ...args,
            '--reporter',
            'pretty',
            ...REPORTERS.flatMap((name) => ['--reporter', `${name}=${dir}/${how}.${name}`]),
          ],
          { env: { ...env, ...extraEnv, NO_COLOR: '1' } },
        );
        expect([0, 1]).toContain(code);
        expect(stdout).toMatch(/passed, \d+ failed/);
        for (const [name, text] of [
          ['stdout', stdout],
          ['stderr', stderr],
          ...REPORTERS.map((name) => [name, readFileSync(`${dir}/${how}.${name}`, 'utf8')]),
        ]) {
          expect(traces(text!, KEY), `${how}: ${name}`).toEqual([]);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the API key echoed URL-encoded with lower-case hex', () => {
  // Known bug, reported to the conformance owner: conformance/client/redact.ts knows encodeURIComponent's
  // upper-case %2F but not %2f, which RFC 3986 §2.1 makes equivalent, so the key reaches every
  // reporter. Flip to it() once fixed.
  it('leaves no trace of it in any reporter', async () => {
    const lower = await startHostileTarget('echoKeyLowerHex', KEY);
    try {
      const report = await runConformance({
        baseUrl: lower.url,
        apiKey: KEY,
        timeoutMs: 2_000,
        only: ['listPets.ok', 'auth.listPets.wrongKey'],
        exchangeLog: true,
      });
      for (const reporter of REPORTERS) expect(traces(render(reporter, report), KEY), reporter).toEqual([]);
    } finally {
      await lower.close();
    }
  });
});
