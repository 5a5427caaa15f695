import { describe, expect, it } from 'vitest';
import type { Report } from '../types.ts';
import { renderHar } from './har.ts';
import { REPORTER_TABLE, REPORTERS, reporter } from './index.ts';

const base = {
  tool: 'petstore-conformance',
  runId: 'r1',
  baseUrl: 'http://h/v1',
  startedAt: '2025-01-01T00:00:00.000Z',
  durationMs: 1,
  options: { strict: false, readOnly: false, concurrency: 8, timeoutMs: 10000 },
  cases: [],
  deselected: 0,
  summary: { passed: 0, failed: 0, warned: 0, info: 0, skipped: 0, notApplicable: 0, total: 0 },
  statusTable: [],
  created: { count: 0, ids: [], namePrefix: 'conformance-r1-' },
  throttling: { byStatus: {}, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: 60000 },
  seed: 1,
  ok: true,
} satisfies Report;

describe('renderHar', () => {
  it('writes each logged exchange as an entry; no answer is status 0 with the reason', () => {
    const har = JSON.parse(
      renderHar({
        ...base,
        exchangeLog: {
          maxEntries: 2,
          maxBodyBytes: 10,
          omitted: 3,
          exchanges: [
            {
              startedAt: '2025-01-01T00:00:00.001Z',
              request: {
                method: 'POST',
                url: 'http://h/v1/pets?x=1',
                headers: { 'content-type': 'application/json' },
                body: '{}',
              },
              response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}', bytes: 8 },
              durationMs: 2.5,
              retries: { count: 1, waitedMs: 1000 },
              cases: ['createPet.full'],
            },
            {
              startedAt: '2025-01-01T00:00:00.002Z',
              request: { method: 'GET', url: 'http://h/v1/pets', headers: {} },
              error: { code: 'PETSTORE_TIMEOUT', message: 'no complete response within 10 ms' },
              durationMs: 10,
            },
          ],
        },
      }),
    );
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'petstore-conformance' } });
    expect(har.log.comment).toMatch(/3 later exchanges not kept: the log holds at most 2/);
    const [created, lost] = har.log.entries;
    expect(created).toMatchObject({
      startedDateTime: '2025-01-01T00:00:00.001Z',
      time: 2.5,
      request: { postData: { mimeType: 'application/json', text: '{}' }, queryString: [{ name: 'x', value: '1' }] },
      response: { status: 201, content: { size: 8, text: '{"id":1}' } },
      comment: 'cases: createPet.full; answered 429/503 1 time(s) before, waited 1000 ms',
    });
    expect(lost.response).toMatchObject({ status: 0, _error: 'PETSTORE_TIMEOUT: no complete response within 10 ms' });
    expect(lost.comment).toBe('no response: PETSTORE_TIMEOUT: no complete response within 10 ms');
  });

  it('says so when the run kept no log', () => {
    const har = JSON.parse(renderHar(base));
    expect(har.log.entries).toEqual([]);
    expect(har.log.comment).toMatch(/exchangeLog: true/);
  });
});

describe('the reporter table', () => {
  it('names every reporter once, each with help and a renderer; only har needs the exchange log', () => {
    expect(REPORTERS).toEqual(['pretty', 'json', 'junit', 'html', 'har']);
    for (const name of REPORTERS) expect(REPORTER_TABLE[name].help.length).toBeGreaterThan(10);
    expect(REPORTERS.filter((name) => reporter(name)?.needsExchangeLog)).toEqual(['har']);
    expect(reporter('toString')).toBeUndefined();
  });
});
