import { describe, expect, it } from 'vitest';
import { createThrottle, retryAfterMs } from './throttle.ts';

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP-dates, and nothing else', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('the wait budget', () => {
  it('asks to retry a 429 (1 s without Retry-After) and a 503 only with Retry-After', () => {
    const t = createThrottle({ now: () => 0 });
    expect(t.decide(429, '2', 0)).toEqual({ retryInMs: 2000 });
    expect(t.decide(429, undefined, 0)).toEqual({ retryInMs: 1000 });
    expect(t.decide(503, '1', 0)).toEqual({ retryInMs: 1000 });
    expect(t.decide(503, undefined, 0)).toBeUndefined();
    expect(t.decide(200, '5', 0)).toBeUndefined();
    expect(t.stats.byStatus).toEqual({ 429: 2, 503: 1 });
  });

  it('counts overlapping waits once: eight requests told to wait the same second spend one second', () => {
    const t = createThrottle({ now: () => 1000, maxWaitMs: 1500 });
    for (let i = 0; i < 8; i++) expect(t.decide(429, '1', 0)).toEqual({ retryInMs: 1000 });
    expect(t.stats.waitedMs).toBe(1000);
  });

  it('gives up with a reason when the wait would pass the budget, and after too many retries', () => {
    let now = 0;
    const t = createThrottle({ now: () => now, maxWaitMs: 2500 });
    expect(t.decide(429, '1', 0)).toEqual({ retryInMs: 1000 });
    now = 1000;
    expect(t.decide(429, '1', 1)).toEqual({ retryInMs: 1000 });
    now = 2000;
    const spent = t.decide(429, '1', 2);
    expect(spent).toEqual({
      exhausted: expect.stringMatching(/^429: .*Retry-After: 1.*--max-wait 2.5 s.*500 ms left/),
    });
    expect(t.decide(429, '0', 20)).toEqual({ exhausted: expect.stringMatching(/after 20 retries/) });
    expect(t.stats).toMatchObject({ retried: 2, exhausted: 2, waitedMs: 2000 });
  });

  it('spaces requests out under a rate cap', async () => {
    const t = createThrottle({ ratePerSecond: 20 });
    const started = performance.now();
    for (let i = 0; i < 5; i++) await t.turn();
    // Four gaps of 50 ms: at least 150 ms even with a coarse timer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });
});
