/**
 * Proof that the mock's failures are real: the conformance suite, run against
 * the mock with each Prefer failure forced on getPet through a control
 * scenario, fails exactly the cases that call getPet, and says why (the
 * forced status, or the broken connection or body); the one advice case on
 * getPet (the deprecation headers) warns instead; every other case passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaseResult, type Report, runConformance } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';

const GET_PET = /^GET .*\/v1\/pets\/[^/?]+$/;

let mock: MockServer;
/** Ids of the cases that send getPet at least once, from a clean run. */
let callsGetPet: string[];
/**
 * The client timeout the hang is judged with: any timeout catches a hang, but every other request must be answered
 * within it, so it is derived from the slowest round trip of the clean run (a busy machine makes that seconds).
 */
let hangTimeoutMs: number;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  const clean = await run();
  expect(clean.cases.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
  callsGetPet = clean.cases.filter(sendsGetPet).map((c) => c.id);
  const slowest = Math.max(...clean.cases.flatMap((c) => c.exchanges.map((e) => e.durationMs)));
  hangTimeoutMs = Math.max(500, Math.ceil(4 * slowest));
  expect(callsGetPet.length).toBeGreaterThan(5);
  expect(callsGetPet.length).toBeLessThan(clean.cases.length - 10);
});
afterAll(async () => {
  await mock?.close();
});

function sendsGetPet(c: CaseResult): boolean {
  return c.exchanges.some((e) => GET_PET.test(`${e.request.method} ${e.request.url}`));
}

/** The suite with no budget to wait out a 429 or 503 (so a forced one fails at once), unless given one. */
function run(timeoutMs = 5_000, maxWaitMs = 0): Promise<Report> {
  return runConformance({ baseUrl: mock.url, apiKey: mock.apiKeys[0]!, timeoutMs, maxWaitMs });
}

/** Everything a failed case says about why: its reason, its failed checks and its exchanges' errors. */
function why(c: CaseResult): string {
  const checks = c.checks.filter((k) => !k.ok).map((k) => `${k.name}: ${k.message} ${(k.details ?? []).join(' ')}`);
  const errors = c.exchanges.map((e) => `${e.response?.status ?? ''} ${e.error?.code ?? ''} ${e.error?.message ?? ''}`);
  return [c.reason ?? '', ...checks, ...errors].join(' | ');
}

async function runWith(scenario: { status?: number; fault?: string }, timeoutMs?: number): Promise<Report> {
  mock.reset();
  const added = await fetch(`${mock.origin}/__control/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'GET', path: '/v1/pets/{petId}', ...scenario }),
  });
  expect(added.status).toBe(201);
  const { id } = (await added.json()) as { id: string };
  const report = await run(timeoutMs);
  const getPets = mock.requests({ path: '/v1/pets/{petId}' });
  expect(getPets.length).toBeGreaterThan(0);
  expect(getPets.filter((e) => e.applied.scenario !== id)).toEqual([]);
  return report;
}

const ids = (cases: CaseResult[], outcome: CaseResult['outcome']): string[] =>
  cases
    .filter((c) => c.outcome === outcome)
    .map((c) => c.id)
    .sort();

/**
 * Only the cases that call getPet are touched: each fails saying `because`, warns (advice, in `warned`), or, when
 * its control request is the broken getPet, is not applicable saying so (never passed).
 */
function expectOnlyGetPetCasesFail(report: Report, because: RegExp, warned: string[]): void {
  const notPassed = report.cases.filter((c) => c.outcome !== 'passed' && c.outcome !== 'skipped');
  expect(notPassed.map((c) => c.id).sort()).toEqual([...callsGetPet].sort());
  const failed = notPassed.filter((c) => c.outcome === 'failed');
  for (const c of failed) expect(why(c), c.id).toMatch(because);
  for (const c of notPassed.filter((r) => r.outcome === 'notApplicable')) {
    // The forced answer reaches a wrong key too: with nothing refused, there is no refusal to compare ids by.
    if (c.id === 'auth.getPet.existenceHidden' && /with a wrong key answered 200, not a refusal/.test(c.reason ?? ''))
      continue;
    expect(c.reason, c.id).toMatch(/^not applicable: the control GET \/pets\/\d+ failed \(/);
    expect(why(c), c.id).toMatch(because);
  }
  expect(ids(notPassed, 'warned')).toEqual(warned);
}

describe('the conformance suite against the mock with a failure forced on getPet', () => {
  it.each([500, 502, 504])('code=%i: every getPet case fails on that status', async (status) => {
    const report = await runWith({ status });
    // A 5xx is a required failure wherever it appears: the advice cases that meet it fail too, none warns, and a
    // control that got it fails its case rather than making it not applicable.
    expectOnlyGetPetCasesFail(report, new RegExp(`\\b${status}\\b`), []);
    expect(ids(report.cases, 'failed')).toEqual([...callsGetPet].sort());
  });

  it.each([429, 503])(
    'code=%i with Retry-After and no wait budget: every required getPet case is not judged (throttled), none failed',
    async (status) => {
      const report = await runWith({ status });
      const required = callsGetPet.filter((id) => report.cases.find((c) => c.id === id)?.level === 'required');
      const throttled = report.cases.filter((c) => c.reason?.startsWith('not judged: throttled'));
      // Every required one, and advice ones whose request (or control) was throttled too: none elsewhere.
      expect(throttled.map((c) => c.id)).toEqual(expect.arrayContaining(required));
      expect(throttled.filter((c) => !callsGetPet.includes(c.id))).toEqual([]);
      expect(report.cases.filter((c) => c.outcome === 'failed' || c.outcome === 'notApplicable')).toEqual([]);
      expect(report.ok).toBe(false);
    },
  );

  it.each([
    ['reset', /ECONNRESET|UND_ERR_SOCKET|socket|closed/i],
    ['close', /UND_ERR_SOCKET|socket|closed/i],
    ['truncated', /UND_ERR|length|socket|closed|terminated/i],
    ['malformed', /JSON|parse|got 200/i],
  ])('fault=%s: every getPet case fails, saying what broke', async (fault, because) => {
    // A broken body still has its 200: the controls hold, and the note on 401 first (information) notes what it got.
    const report = await runWith({ fault });
    expectOnlyGetPetCasesFail(report, because, ['getPet.deprecationHeaders']);
    const noted = fault === 'malformed' ? ['auth.getPet.beforeValidation.prefers401'] : [];
    expect(ids(report.cases, 'info')).toEqual(noted);
  });

  it('fault=hang: every getPet case fails on the client timeout', async () => {
    expectOnlyGetPetCasesFail(await runWith({ fault: 'hang' }, hangTimeoutMs), /timeout|timed out|TIMEOUT/i, [
      'getPet.deprecationHeaders',
    ]);
  }, 240_000);

  it('times=1 with a wait budget: the one 503 is waited out (Retry-After) and retried, so every case passes', async () => {
    mock.reset();
    const { id } = mock.scenarios.add({ method: 'GET', path: '/v1/pets/{petId}', status: 503, times: 1 });
    const report = await run(5_000, 10_000);
    expect(report.cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    expect(report.throttling).toMatchObject({ retried: 1, exhausted: 0, byStatus: { 503: 1 } });
    expect(mock.requests().filter((e) => e.applied.scenario === id)).toHaveLength(1);
  });

  it('times=1: exactly one getPet request is refused, so exactly one case fails (or warns)', async () => {
    mock.reset();
    const { id } = mock.scenarios.add({ method: 'GET', path: '/v1/pets/{petId}', status: 500, times: 1 });
    const report = await run();
    const hit = report.cases.filter((c) => c.outcome === 'failed' || c.outcome === 'warned');
    expect(hit).toHaveLength(1);
    expect(callsGetPet).toContain(hit[0]!.id);
    expect(mock.requests().filter((e) => e.applied.scenario === id)).toHaveLength(1);
    expect(mock.scenarios.list()).toEqual([]);
  });
});
