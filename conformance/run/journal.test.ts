import { describe, expect, it } from 'vitest';
import type { Client } from '../client/client.ts';
import type { CaseRequest, CaseResult, Exchange } from '../types.ts';
import { recordExchanges } from './journal.ts';

/** A client whose answers arrive in the order `release` is called, not the order sent. */
function fakeClient(): { client: Client; release(path: string): void } {
  const waiting = new Map<string, () => void>();
  const client: Client = {
    async send(request: CaseRequest): Promise<Exchange> {
      await new Promise<void>((resolve) => waiting.set(request.path, resolve));
      const body = request.path === '/big' ? 'x'.repeat(100) : '[]';
      return {
        request: { method: request.method, url: `http://h/v1${request.path}`, headers: {}, body: 'sent' },
        response: { status: 200, headers: {}, body, bytes: body.length, json: [] },
        durationMs: 1,
      };
    },
    stats: {
      requests: 0,
      keyRequests: 0,
      keyRejected: 0,
      created: 0,
      createdIds: [],
      transportFailed: 0,
    },
    throttleStats: { byStatus: {}, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: 0 },
    close: async () => {},
  };
  return { client, release: (path) => waiting.get(path)?.() };
}

describe('recordExchanges', () => {
  it('keeps exchanges in the order sent, names their cases, and stays within its bounds', async () => {
    const fake = fakeClient();
    const journal = recordExchanges(fake.client, { maxEntries: 3, maxBodyBytes: 50 });
    const sends = ['/a', '/big', '/c', '/d'].map((path) => journal.client.send({ method: 'GET', path }));
    await new Promise((resolve) => setImmediate(resolve));
    for (const path of ['/d', '/c', '/big', '/a']) fake.release(path);
    const [a] = await Promise.all(sends);
    const result = { id: 'listPets.ok', exchanges: [a!] } as CaseResult;
    const log = journal.log([result]);
    expect(log.exchanges.map((e) => e.request.url)).toEqual(['http://h/v1/a', 'http://h/v1/big', 'http://h/v1/c']);
    expect(log.omitted).toBe(1);
    expect(log.exchanges[0]).toMatchObject({ cases: ['listPets.ok'], response: { body: '[]' } });
    // The big body would pass the byte bound: kept without bodies, and said so.
    expect(log.exchanges[1]).toMatchObject({ bodiesOmitted: true, response: { body: '', bytes: 100 } });
    expect(log.exchanges[1]!.request.body).toBeUndefined();
    expect(log.exchanges[1]!.response!.json).toBeUndefined();
    expect(log.exchanges[2]!.bodiesOmitted).toBeUndefined();
    expect(Date.parse(log.exchanges[0]!.startedAt)).not.toBeNaN();
    expect(journal.client.stats).toBe(fake.client.stats);
  });
});
