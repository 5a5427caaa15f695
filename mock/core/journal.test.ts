import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJournal, JOURNAL_BODY_LIMIT } from './journal.ts';
import { AUTH, expectError, JSON_HEADERS, json, setupMock } from './test-support.ts';

const record = (journal: ReturnType<typeof createJournal>, body: string) =>
  journal.record({
    time: 0,
    request: { method: 'POST', url: '/v1/pets', headers: {}, body },
    status: 201,
    durationMs: 0,
    applied: {},
  });

describe('the journal, keeping what repeats as it kept it before', () => {
  it('reads every request as sent, whatever it shares with the one before', () => {
    const journal = createJournal({ keys: ['k'] });
    const sent: [url: string, headers: Record<string, string | string[] | undefined>, body?: string][] = [
      ['/v1/pets?limit=2', { host: 'a', accept: 'x' }, '{"name":"Rex"}'],
      ['/v1/pets?limit=2', { host: 'a', accept: 'x' }, '{"name":"Rex"}'],
      ['/v1/pets?limit=2', { accept: 'x', host: 'a' }],
      ['/v1/pets?limit=2', { host: 'a', accept: 'y' }, '{"name":"Rex"}'],
      ['/v1/pets?limit=3', { host: 'a' }, '{"name":"Tom"}'],
      ['/v1/pets?limit=3', { host: 'a', accept: undefined, via: 'p' }],
      ['/v1/pets?limit=3', { host: 'a', via: 'p', te: ['1', '2'] }],
      ['/v1/pets?limit=3', { host: 'a', via: 'p', te: ['1', '2'] }],
      // A field sent as undefined is not the field another request sent, nor its absence counted as one.
      ['/v1/pets?a=1', { host: 'a', 'x-debug': '1' }],
      ['/v1/pets?a=1', { host: 'a', prefer: undefined }],
      ['/v1/pets?a=1', { host: 'a', prefer: undefined }],
    ];
    for (const [url, headers, body] of sent)
      journal.record({
        time: 0,
        request: { method: 'POST', url, headers: { ...headers }, ...(body === undefined ? {} : { body }) },
        status: 201,
        durationMs: 0,
        applied: {},
      });
    const defined = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined));
    expect(
      journal
        .list()
        .map((e) => [`${e.path}?${new URLSearchParams(e.query as Record<string, string>)}`, e.headers, e.body]),
    ).toEqual(sent.map(([url, headers, body]) => [url, expect.objectContaining(defined(headers)), body]));
    for (const [i, entry] of journal.list().entries())
      expect(Object.keys(entry.headers).sort(), `entry ${i}`).toEqual(Object.keys(defined(sent[i]![1])).sort());
  });
  it('reads each request with its own headers when a few sets come in turn, more of them than it keeps at hand', () => {
    const sets: Record<string, string>[] = [
      { host: 'a', authorization: 'Bearer k' },
      { host: 'a', authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': '14' },
      { host: 'a', authorization: 'Bearer k', accept: 'x' },
      { host: 'b', authorization: 'Bearer k' },
      { authorization: 'Bearer k', host: 'a' },
      { host: 'a' },
    ];
    fc.assert(
      fc.property(fc.array(fc.nat(sets.length - 1), { minLength: 10, maxLength: 60 }), (order) => {
        const journal = createJournal({ keys: ['k'] });
        for (const i of order)
          journal.record({
            time: 0,
            request: { method: 'GET', url: `/v1/pets?set=${i}`, headers: { ...sets[i] } },
            status: 200,
            durationMs: 0,
            applied: {},
          });
        const read = journal.list().map((e) => [e.query.set, Object.entries(e.headers)]);
        const redacted = (h: Record<string, string>) =>
          Object.entries(h).map(([n, v]) => [n, n === 'authorization' ? '[REDACTED]' : v]);
        expect(read).toEqual(order.map((i) => [String(i), redacted(sets[i]!)]));
      }),
    );
  });
});

describe('the journal, around its ring', () => {
  it('reads each kept entry with its own body or none, whatever the slot held before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.constantFrom('{"name":"Rex"}', '{"name":"Tom"}', 'kkk'), { nil: undefined }), {
          maxLength: 12,
        }),
        (bodies) => {
          const journal = createJournal({ capacity: 3, keys: ['kkk'] });
          for (const body of bodies)
            journal.record({
              time: 0,
              request: { method: 'POST', url: '/v1/pets', headers: {}, ...(body === undefined ? {} : { body }) },
              status: 201,
              durationMs: 0,
              applied: {},
            });
          // The key is redacted when read; a request without a body reads without one, never the slot's last.
          const read = (body: string | undefined) => (body === 'kkk' ? '[REDACTED]' : body);
          expect(journal.list().map((e) => e.body)).toEqual(bodies.slice(-3).map(read));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the journal, bounded by bytes', () => {
  it('drops the oldest entries to stay within its byte budget, and counts them', () => {
    const journal = createJournal({ capacity: 1_000, maxBytes: 100_000, keys: ['k'] });
    for (let i = 0; i < 20; i++) record(journal, `${i}:`.padEnd(20_000, 'x'));
    expect(journal.bytes).toBeLessThanOrEqual(100_000);
    expect(journal.size).toBe(4);
    expect(journal.dropped).toBe(16);
    expect(journal.list().map((e) => e.seq)).toEqual([17, 18, 19, 20]);
    // The entry cap still holds, and what it drops counts too.
    const small = createJournal({ capacity: 2, keys: [] });
    for (let i = 0; i < 5; i++) record(small, '{}');
    expect([small.size, small.dropped]).toEqual([2, 3]);
  });

  it('keeps the newest entries that fit both bounds, full by count and by bytes at once', () => {
    // Each entry costs 256 plus its target (`/v1/pets`, 8) plus its body: 264 + the body's length.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 40 }), (sizes) => {
        const journal = createJournal({ capacity: 4, maxBytes: 2_000, keys: [] });
        const kept: { seq: number; cost: number }[] = [];
        let dropped = 0;
        sizes.forEach((size, i) => {
          const cost = 264 + size;
          while (kept.length > 0 && (kept.length === 4 || kept.reduce((n, e) => n + e.cost, 0) + cost > 2_000)) {
            kept.shift();
            dropped++;
          }
          kept.push({ seq: i + 1, cost });
          record(journal, 'x'.repeat(size));
        });
        expect(journal.list().map((e) => [e.seq, e.body?.length])).toEqual(kept.map((e) => [e.seq, e.cost - 264]));
        expect([journal.bytes, journal.dropped]).toEqual([kept.reduce((n, e) => n + e.cost, 0), dropped]);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps at most 64 KiB of a body, as a copy', () => {
    const journal = createJournal({ keys: ['k'] });
    record(journal, 'a'.repeat(1_000_000));
    const [entry] = journal.list();
    expect(entry!.body!.length).toBe(JOURNAL_BODY_LIMIT);
    expect(entry!.bodyTruncated).toBe(true);
    expect(journal.bytes).toBeLessThan(JOURNAL_BODY_LIMIT + 1_000);
  });

  it('refuses a budget it cannot keep', () => {
    expect(() => createJournal({ maxBytes: -1, keys: [] })).toThrow(/journalBytes must be an integer/);
    expect(() => createJournal({ maxBytes: 2 ** 31, keys: [] })).toThrow(/journalBytes/);
    expect(() => setupMock({ journalBytes: 1.5 })).toThrow(/journalBytes must be an integer/);
  });
});

describe('GET /__control/requests, a page at a time', () => {
  it('?limit and ?since page through the journal; Link names the next page; Journal-Dropped the dropped', async () => {
    const { call } = setupMock({ journalSize: 8 });
    for (let i = 0; i < 10; i++) await call('GET', `/v1/pets?limit=${i + 1}`, AUTH);
    const first = await call('GET', '/__control/requests?limit=3', {});
    expect(json(first).map((e: { seq: number }) => e.seq)).toEqual([3, 4, 5]);
    expect(first.headers['journal-dropped']).toBe('2');
    expect(first.headers.link).toBe('<?limit=3&since=5>; rel="next"');
    const second = await call('GET', '/__control/requests?limit=3&since=5', {});
    expect(json(second).map((e: { seq: number }) => e.seq)).toEqual([6, 7, 8]);
    const last = await call('GET', '/__control/requests?limit=3&since=8', {});
    expect(json(last).map((e: { seq: number }) => e.seq)).toEqual([9, 10]);
    expect(last.headers.link).toBeUndefined();
    expect(json(await call('GET', '/__control/requests?since=10', {}))).toEqual([]);
    const filtered = await call('GET', '/__control/requests?path=/v1/pets&limit=1&since=9', {});
    expect(json(filtered).map((e: { seq: number }) => e.seq)).toEqual([10]);
    for (const bad of ['limit=0', 'limit=x', 'since=-1', 'limit=1.5', 'since=1e3'])
      expectError(await call('GET', `/__control/requests?${bad}`, {}), 400, 'invalid_parameter');
  });

  it('in process, requests({ since, limit }) pages the same way', async () => {
    const { call, mock } = setupMock();
    for (let i = 0; i < 4; i++) await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"A","categoryId":1}');
    expect(mock.requests({ since: 1, limit: 2 }).map((e) => e.seq)).toEqual([2, 3]);
  });
});
