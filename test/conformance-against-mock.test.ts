/**
 * The conformance suite against the reference mock, in process on port 0:
 * every case, advice included, must pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseResult, runConformance } from '../conformance/index.ts';
import { startMockServer } from '../mock/node/index.ts';

let mock: Awaited<ReturnType<typeof startMockServer>>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});

afterAll(async () => {
  await mock?.close();
});

function describeFailure(c: CaseResult): string {
  const checks = c.checks
    .filter((k) => !k.ok)
    .map((k) => `    ${k.name}: ${k.message}${(k.details ?? []).map((d) => `\n      ${d}`).join('')}`);
  const requests = c.exchanges.map(
    (e) => `    ${e.request.method} ${e.request.url} -> ${e.response?.status ?? e.error?.code}`,
  );
  return [`${c.id} (${c.outcome}): ${c.reason ?? ''}`, ...checks, ...requests].join('\n');
}

describe('conformance suite against the reference mock', () => {
  it('passes every case, strict (advice and closed Pet schemas) included', async () => {
    const report = await runConformance({ baseUrl: mock.url, apiKey: mock.apiKeys[0]!, strict: true });
    const notPassed = report.cases.filter((c) => c.outcome !== 'passed');
    expect(
      notPassed.length,
      `cases that did not pass against the mock:\n${notPassed.map(describeFailure).join('\n')}`,
    ).toBe(0);
    expect(report.coverage.every((e) => e.caseIds.length > 0)).toBe(true);
  });

  it('passes read-only too, without creating anything', async () => {
    mock.reset();
    const before = mock.store.size;
    const report = await runConformance({ baseUrl: mock.url, apiKey: mock.apiKeys[0]!, readOnly: true });
    expect(report.cases.filter((c) => c.outcome === 'failed').map(describeFailure)).toEqual([]);
    expect(mock.store.size).toBe(before);
    expect(report.created.count).toBe(0);
  });
});
