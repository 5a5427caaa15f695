/**
 * Generated checks against the reference mock made to misbehave: rate-limited past the wait budget (not judged:
 * throttled, never failed or shrunk) and flaky (--chaos: replayed, reported as intermittent, not shrunk).
 */
import { describe, expect, it } from 'vitest';
import { type CaseResult, type ConformanceOptions, type Report, runConformance } from '../conformance/index.ts';
import { type MockServerOptions, startMockServer } from '../mock/node/index.ts';

const KEY = 'gen-mock-key';
const failed = (r: Report): CaseResult[] => r.cases.filter((c) => c.outcome === 'failed');

/** The generated checks only, against a mock started with `mock` (and closed after). */
async function generatedAgainst(mock: MockServerOptions, run: Partial<ConformanceOptions>): Promise<Report> {
  const server = await startMockServer({ apiKeys: [KEY], count: 3, ...mock });
  try {
    return await runConformance({ baseUrl: server.url, apiKey: KEY, only: ['generated.*'], ...run });
  } finally {
    await server.close();
  }
}

describe('generated checks against a server that throttles past the budget', () => {
  it('are not judged: throttled, never failed or shrunk; the run is incomplete, not failed', async () => {
    const report = await generatedAgainst({ rateLimit: 5 }, { generate: 60, maxWaitMs: 0 });
    const generated = report.cases.filter((c) => c.id.startsWith('generated.'));
    expect(generated.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
    const throttled = generated.filter((c) => c.reason?.startsWith('not judged: throttled'));
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled[0]!.reason).toMatch(/generated sequences? met .*429.*--rate N/);
    expect(report.generation!.shrinkRequests).toBe(0);
    expect(report.ok).toBe(false);
    expect(report.incomplete).toMatch(
      /could not be judged: the server kept answering 429\/503 past the --max-wait budget/,
    );
  }, 60_000);
});

describe('a generated failure is replayed before it is shrunk', () => {
  it('a flaky 5xx (the mock with chaos 0.05) is reported as intermittent, with the requests that got it, not shrunk', async () => {
    const report = await generatedAgainst({ chaos: 0.05 }, { generate: 80 });
    const flaky = failed(report);
    expect(flaky.length).toBeGreaterThan(0);
    for (const c of flaky) {
      expect(c.reason).toMatch(/intermittent: [123] of 4/);
      expect(c.checks.find((k) => k.name === 'replay')?.message).toMatch(/^intermittent: [123] of 4; not shrunk/);
      // The requests as they were sent, the 5xx among them: not a made-up minimal sequence.
      expect(c.exchanges.some((ex) => (ex.response?.status ?? 0) >= 500)).toBe(true);
    }
    expect(report.generation!.replayRequests).toBeGreaterThan(0);
    expect(report.generation!.shrinkRequests).toBe(0);
  }, 60_000);
});
