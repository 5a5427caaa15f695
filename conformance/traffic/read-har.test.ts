import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConformanceError } from '../errors.ts';
import { renderHar } from '../report/har.ts';
import type { Report } from '../types.ts';
import { judgeTraffic } from './judge-traffic.ts';
import { readHarEntries } from './read-har.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-read-har-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'http://127.0.0.1:9/v1';

/** A HAR as the suite's own har reporter writes it (the writer under test elsewhere), from one logged exchange. */
function suiteHar(n = 1): string {
  const exchanges = Array.from({ length: n }, (_, i) => ({
    request: { method: 'GET', url: `${BASE}/pets?limit=1`, headers: { authorization: 'Bearer [REDACTED]' } },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `[{"id":${i + 1},"name":"a","categoryId":1}]`,
      bytes: 40,
    },
    durationMs: 1,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  const report = {
    runId: 'r',
    baseUrl: BASE,
    exchangeLog: { exchanges, omitted: 0, maxEntries: 10, maxBodyBytes: 1e6 },
  };
  return renderHar(report as unknown as Report);
}

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(path: string, maxEntryBytes?: number): Promise<ConformanceError> {
  try {
    for await (const _ of readHarEntries(path, maxEntryBytes)) {
      // drain
    }
  } catch (err) {
    expect(err).toBeInstanceOf(ConformanceError);
    return err as ConformanceError;
  }
  throw new Error('expected a failure');
}

describe('bad input: one line naming the file and the place', () => {
  it('not JSON', async () => {
    const err = await failure(file('text.har', 'hello, not json'));
    expect(err.code).toBe('PETSTORE_CONFORMANCE_BAD_HAR');
    expect(err.message).toMatch(/text\.har: at byte 0: not JSON/);
  });

  it('JSON that is not a HAR: an array, and an object without log', async () => {
    expect((await failure(file('array.har', '[1,2,3]'))).message).toMatch(
      /array\.har: at byte 0: JSON that is not a HAR/,
    );
    expect((await failure(file('object.har', '{"foo":{"bar":[1]}}'))).message).toMatch(
      /object\.har: log: JSON that is not a HAR: it has no log object/,
    );
  });

  it('a log without entries is named, with what is missing, not read as 0 entries', async () => {
    const versionOnly = file('version-only.har', '{"log":{"version":"1.2"}}');
    expect((await failure(versionOnly)).message).toBe(
      `${versionOnly}: log: JSON that is not a HAR: log.entries is missing (a HAR 1.2 log holds version, creator and entries)`,
    );
    expect((await failure(file('empty-log.har', '{"log":{}}'))).message).toMatch(
      /empty-log\.har: log: JSON that is not a HAR: log\.entries is missing, and so is log\.version/,
    );
    // An empty recording is still a HAR: it reads as no entries, not as a bad file.
    const empty = file('no-entries.har', '{"log":{"version":"1.2","entries":[]}}');
    const read = [];
    for await (const entry of readHarEntries(empty)) read.push(entry);
    expect(read).toEqual([]);
  });

  it('a truncated file', async () => {
    const whole = suiteHar(3);
    const err = await failure(file('cut.har', whole.slice(0, Math.floor(whole.length * 0.7))));
    expect(err.message).toMatch(/cut\.har: at byte \d+: the file ends in the middle of the JSON \(truncated\)/);
  });

  it('invalid JSON mid-file names the byte', async () => {
    const whole = suiteHar(2);
    const at = whole.indexOf('"entries": [') + '"entries": ['.length;
    const err = await failure(file('garbled.har', `${whole.slice(0, at)}@@${whole.slice(at)}`));
    expect(err.message).toMatch(/garbled\.har: at byte \d+: not JSON/);
  });

  it('an entry without a request', async () => {
    const har = JSON.parse(suiteHar(2));
    delete har.log.entries[1].request;
    const err = await failure(file('norequest.har', JSON.stringify(har)));
    expect(err.message).toMatch(/norequest\.har: entry 1 \(bytes \d+ to \d+\): has no request/);
  });

  it('an entry larger than the bound', async () => {
    const har = JSON.parse(suiteHar(1));
    har.log.entries[0].response.content.text = 'x'.repeat(300_000);
    const err = await failure(file('huge.har', JSON.stringify(har)), 100_000);
    expect(err.message).toMatch(/huge\.har: entry from byte \d+: spans more than 100000 bytes/);
  });

  it('a file that does not exist, and an empty one', async () => {
    expect((await failure(join(dir, 'missing.har'))).message).toMatch(
      /missing\.har: the file: cannot be read \(ENOENT\)/,
    );
    expect((await failure(file('empty.har', ''))).message).toMatch(/empty\.har: at byte 0: the file is empty/);
  });
});

describe('reading and judging', () => {
  it('reads the suite own HAR, base64 bodies included, and judges it', async () => {
    const har = JSON.parse(suiteHar(2));
    const content = har.log.entries[1].response.content;
    content.text = Buffer.from(content.text).toString('base64');
    content.encoding = 'base64';
    const report = await judgeTraffic({ files: [file('b64.har', JSON.stringify(har))], baseUrl: BASE });
    expect(report.traffic?.judged).toBe(2);
    expect(report.cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('nothing under the base URL: not ok, incomplete, hosts counted', async () => {
    const report = await judgeTraffic({
      files: [file('elsewhere.har', suiteHar(2))],
      baseUrl: 'http://example.test/v1',
    });
    expect(report.ok).toBe(false);
    expect(report.incomplete).toMatch(/nothing could be judged/);
    expect(report.traffic?.outside).toEqual({ '127.0.0.1:9': 2 });
  });

  it('two files as one run, in time order', async () => {
    const a = JSON.parse(suiteHar(2));
    const b = JSON.parse(suiteHar(2));
    for (const e of b.log.entries) e.startedDateTime = new Date(Date.parse(e.startedDateTime) + 500).toISOString();
    const report = await judgeTraffic({
      files: [file('a.har', JSON.stringify(a)), file('b.har', JSON.stringify(b))],
      baseUrl: BASE,
      exchangeLog: true,
    });
    const times = report.exchangeLog!.exchanges.map((e) => e.startedAt);
    expect(times).toEqual([...times].sort());
    expect(report.traffic?.entries).toBe(4);
  });
});
