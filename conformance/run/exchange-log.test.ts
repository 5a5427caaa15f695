import { describe, expect, it } from 'vitest';
import type { CaseResult, Exchange } from '../types.ts';
import { createExchangeRecorder } from './exchange-log.ts';

function exchange(path: string, body = '[]'): Exchange {
  return {
    request: { method: 'GET', url: `http://h/v1${path}`, headers: {}, body: 'sent' },
    response: { status: 200, headers: {}, body, bytes: body.length, json: [] },
    durationMs: 1,
  };
}

describe('createExchangeRecorder', () => {
  it('keeps exchanges in the order started, names their cases, marks retries, and stays within its bounds', () => {
    const recorder = createExchangeRecorder({ maxEntries: 3, maxBodyBytes: 50 });
    const [a, big, c, d] = [exchange('/a'), exchange('/big', 'x'.repeat(100)), exchange('/c'), exchange('/d')];
    // Told as they end, not as they started.
    recorder.record(c!, 3000, true);
    recorder.record(big!, 2000, false);
    recorder.record(a!, 1000, false);
    recorder.record(d!, 500, false);
    const log = recorder.log([{ id: 'listPets.ok', exchanges: [a!] } as CaseResult]);
    expect(log.exchanges.map((e) => e.request.url)).toEqual(['http://h/v1/a', 'http://h/v1/big', 'http://h/v1/c']);
    expect(log).toMatchObject({ omitted: 1, maxEntries: 3, maxBodyBytes: 50 });
    expect(log.exchanges[0]).toMatchObject({
      cases: ['listPets.ok'],
      response: { body: '[]' },
      startedAt: new Date(1000).toISOString(),
    });
    // The big body would pass the byte bound: kept without bodies, and said so.
    expect(log.exchanges[1]).toMatchObject({ bodiesOmitted: true, response: { body: '', bytes: 100 } });
    expect(log.exchanges[1]!.request.body).toBeUndefined();
    expect(log.exchanges[1]!.response!.json).toBeUndefined();
    expect(log.exchanges[2]).toMatchObject({ retried: true });
    expect(log.exchanges[2]!.bodiesOmitted).toBeUndefined();
    expect(log.exchanges[0]!.retried).toBeUndefined();
  });
});
