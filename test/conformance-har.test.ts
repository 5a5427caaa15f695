/**
 * `--reporter har=FILE` against the reference mock: the file is an HTTP Archive 1.2 (the structure the
 * format requires, checked with ajv), holds every request the mock received with its answer, in the order
 * sent, and carries the API key in no spelling.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';
import { runProcess, tsxEntry } from './support/processes.ts';

/** Characters that URL, JSON and base64 spell differently (and a Bearer token may hold). */
const KEY = 'har-Key_9/Qx+R~z=';

/** The parts of HAR 1.2 (softwareishard.com/blog/har-12-spec) every entry must have. */
const nameValues = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value'],
    properties: { name: { type: 'string' }, value: { type: 'string' } },
  },
};
const HAR_12 = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string' }, version: { type: 'string' } },
        },
        pages: { type: 'array' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', format: 'date-time' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: [
                  'method',
                  'url',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'queryString',
                  'headersSize',
                  'bodySize',
                ],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string', format: 'uri' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  queryString: nameValues,
                  postData: {
                    type: 'object',
                    required: ['mimeType', 'text'],
                    properties: { mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: [
                  'status',
                  'statusText',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'content',
                  'redirectURL',
                  'headersSize',
                  'bodySize',
                ],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  content: {
                    type: 'object',
                    required: ['size', 'mimeType'],
                    properties: { size: { type: 'integer' }, mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: {
                  send: { type: 'number', minimum: 0 },
                  wait: { type: 'number', minimum: 0 },
                  receive: { type: 'number', minimum: 0 },
                  blocked: { type: 'number', minimum: -1 },
                  dns: { type: 'number', minimum: -1 },
                  connect: { type: 'number', minimum: -1 },
                  ssl: { type: 'number', minimum: -1 },
                },
              },
            },
          },
        },
      },
    },
  },
};

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
    const har = JSON.parse(text) as { log: { creator: { name: string }; entries: HarEntry[] } };

    const ajv = new Ajv({ allErrors: true });
    ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s));
    ajv.addFormat('uri', (s: string) => URL.canParse(s));
    const valid = ajv.compile(HAR_12);
    expect(valid(har), ajv.errorsText(valid.errors)).toBe(true);
    expect(har.log.creator.name).toBe('petstore-conformance');

    const entries = har.log.entries;
    // Every request the mock took in, each once, with the status it answered.
    const received = mock.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
    const logged = entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`);
    expect(logged.toSorted()).toEqual(received.toSorted());
    const times = entries.map((e) => Date.parse(e.startedDateTime));
    expect(times).toEqual(times.toSorted((a, b) => a - b));
    for (const e of entries) expect(e.time).toBeCloseTo(e.timings.send + e.timings.wait + e.timings.receive, 3);
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
