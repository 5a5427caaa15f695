/**
 * `--reporter har=FILE` against the reference mock: the file is an HTTP Archive 1.2 (valid against
 * har-schema, the format's JSON Schemas), holds every request the mock received with its answer, in the order
 * sent, and carries the API key in no spelling.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';
import { runProcess, tsxEntry } from './support/processes.ts';

/** Characters that URL, JSON and base64 spell differently (and a Bearer token may hold). */
const KEY = 'har-Key_9/Qx+R~z=';

/** A validator of HAR 1.2 from har-schema (the JSON Schemas har-validator uses), draft-06. */
function harValidator(): ValidateFunction {
  const require = createRequire(import.meta.url);
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  (require('ajv-formats') as (ajv: Ajv) => Ajv)(ajv);
  for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: { name: string; value: string }[] };
  response: { status: number };
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** Every spelling of the key a report could leak. */
function spellings(key: string): string[] {
  const url = encodeURIComponent(key);
  return [
    key,
    url,
    url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    JSON.stringify(key).slice(1, -1),
    key.replace(/\//g, '\\/'),
    Buffer.from(key).toString('base64'),
    Buffer.from(`conformance:${key}`).toString('base64'),
    Buffer.from(key).toString('base64url'),
  ];
}

let mock: Awaited<ReturnType<typeof startMockServer>>;
let dir: string;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, apiKeys: [KEY] });
  dir = mkdtempSync(join(tmpdir(), 'conformance-har-'));
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--reporter har=FILE against the mock', () => {
  it('writes a HAR 1.2 of every request and answer in the order sent, without the key', async () => {
    mock.reset();
    const file = join(dir, 'run.har');
    const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...env } = process.env;
    const run = await runProcess(
      [...tsxEntry('conformance/cli.ts'), '--base-url', mock.url, '--reporter', 'json', '--reporter', `har=${file}`],
      { env: { ...env, PETSTORE_API_KEY: KEY } },
    );
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: HarEntry[] } };

    const valid = harValidator();
    // The suite sends a few targets that are not URIs on purpose (`limit=%`, `status=%zz`, `limit[]=2`: what a
    // decoder gets wrong), and the HAR records what was sent; every other part of every entry must be valid.
    const notUri = /%(?![0-9A-Fa-f]{2})|[[\]]/;
    const errors = valid(har) ? [] : (valid.errors ?? []);
    const unexpected = errors.filter((e) => {
      const at = /^\/log\/entries\/(\d+)\/request\/url$/.exec(e.instancePath);
      return !(at && e.keyword === 'format' && notUri.test(har.log.entries[Number(at[1])]!.request.url));
    });
    expect(unexpected, JSON.stringify(unexpected.slice(0, 3))).toEqual([]);
    expect(errors.length).toBeLessThanOrEqual(4);
    // The validator can fail: an entry without its timings, or a date that is not one, is refused.
    const [first] = har.log.entries as unknown as Record<string, unknown>[];
    const { timings: _t, ...untimed } = first!;
    expect(valid({ log: { ...har.log, entries: [untimed] } })).toBe(false);
    expect(valid({ log: { ...har.log, entries: [{ ...first, startedDateTime: 'yesterday' }] } })).toBe(false);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('petstore-conformance');

    const entries = har.log.entries;
    // Every request the mock took in, each once, with the status it answered.
    const received = mock.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
    const logged = entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`);
    expect(logged.toSorted()).toEqual(received.toSorted());
    const times = entries.map((e) => Date.parse(e.startedDateTime));
    expect(times).toEqual(times.toSorted((a, b) => a - b));
    for (const e of entries) {
      // HAR 1.2: send, wait and receive are never -1, and time is the sum of the known timings.
      expect(Math.min(e.timings.send, e.timings.wait, e.timings.receive)).toBeGreaterThanOrEqual(0);
      expect(e.time).toBeCloseTo(e.timings.send + e.timings.wait + e.timings.receive, 3);
    }
    expect(entries.some((e) => e.comment?.startsWith('cases: listPets.ok'))).toBe(true);
    // The key's schemes are still shown; the key in none of its spellings, and the JSON report agrees on the count.
    const auth = entries.flatMap((e) =>
      e.request.headers.filter((h) => h.name === 'authorization').map((h) => h.value),
    );
    expect(auth).toContain('Bearer [REDACTED]');
    expect(auth).toContain('Basic [REDACTED]');
    expect(spellings(KEY).filter((s) => text.includes(s))).toEqual([]);
    expect(run.stdout).not.toContain('exchangeLog');
    console.info(`a default run against the mock: ${entries.length} HAR entries, ${text.length} bytes`);
  });

  it('holds each 429 the suite waited out as its own entry, as the server saw them', async () => {
    const limited = await startMockServer({ port: 0, apiKeys: [KEY], rateLimit: 4 });
    try {
      const file = join(dir, 'limited.har');
      const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...env } = process.env;
      const run = await runProcess(
        [
          ...tsxEntry('conformance/cli.ts'),
          '--base-url',
          limited.url,
          '--only',
          'listPets.limit',
          '--reporter',
          `har=${file}`,
        ],
        { env: { ...env, PETSTORE_API_KEY: KEY } },
      );
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
      const entries = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
      const statuses = entries.map((e) => e.response.status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.toSorted()).toEqual(
        limited
          .requests()
          .map((r) => r.status)
          .toSorted(),
      );
      for (const e of entries.filter((x) => x.response.status === 429)) expect(e.comment).toMatch(/sent again/);
    } finally {
      await limited.close();
    }
  });
});
