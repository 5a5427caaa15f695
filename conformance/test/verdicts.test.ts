/**
 * Verdicts that must be true on servers written the ordinary way (issue 34): what a skip says was missing, a
 * router's key-independent refusal of a malformed id, advice only with a basis, and bytes that are not UTF-8.
 */
import { describe, expect, it } from 'vitest';
import { type Report, runConformance } from '../index.ts';
import { type FakePetstoreOptions, startFakePetstore } from './fake-petstore.ts';

async function runOn(options: FakePetstoreOptions, run: Partial<Parameters<typeof runConformance>[0]> = {}) {
  const fake = await startFakePetstore(options);
  try {
    return await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, ...run });
  } finally {
    await fake.close();
  }
}

function outcome(report: Report, id: string): string | undefined {
  const c = report.cases.find((r) => r.id === id);
  return c && `${c.outcome}${c.reason ? `: ${c.reason}` : ''}`;
}

describe('a prerequisite takes the id the answer has', () => {
  it('a server writing a missing status as null still gets the cases that need only the id', async () => {
    const report = await runOn({ violations: ['statusNull'] }, { only: ['createPet'] });
    expect(report.cases.filter((c) => c.outcome === 'skipped').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(outcome(report, 'createPet.distinctIds')).toBe('passed');
    expect(outcome(report, 'createPet.noStatus')).toMatch(/^failed: .*schema/);
    // Judged: the existing animal is fetched back, and fails only on its null status.
    expect(outcome(report, 'createPet.clientId.noOverwrite')).toMatch(/^failed: existing animal: schema/);
  });

  it('a skip says exactly what was missing', async () => {
    const report = await runOn({ violations: ['missingId'] }, { only: ['createPet.distinctIds', 'getPet.existing'] });
    expect(outcome(report, 'createPet.distinctIds')).toBe(
      'skipped: prerequisite failed: creating the available animal gave no id: POST /pets answered 201 with no id in its body',
    );
    expect(outcome(report, 'getPet.existing')).toBe(
      'skipped: prerequisite failed: creating an animal to read gave no id: POST /pets answered 201 with no id in its body (see createPet.full)',
    );
  });
});

describe("a refusal the same whatever the key is the router's; an answer that depends on the store is a leak", () => {
  it('a router that answers 404 to a malformed id before any handler passes, with the same answer for each key', async () => {
    const report = await runOn({ choices: { routerDigitsOnly: true } }, { only: ['auth.getPet', 'getPet'] });
    expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    const c = report.cases.find((r) => r.id === 'auth.getPet.beforeValidation')!;
    expect(c.outcome).toBe('passed');
    expect(c.exchanges.map((e) => `${e.request.url.replace(/^.*\/v1/, '')} ${e.response?.status}`)).toEqual([
      '/pets/abc 404',
      '/pets/abc 404',
      '/pets/abc 404',
    ]);
    expect(c.checks.map((k) => k.message).join('\n')).toMatch(
      /same 404 Error with no key, a wrong key and the right key/,
    );
  });

  it('a server whose wrong-key answer differs between a known and an unknown id fails', async () => {
    const report = await runOn({ violations: ['lookupBeforeAuth'] }, { only: ['auth.getPet'] });
    expect(outcome(report, 'auth.getPet.existenceHidden')).toMatch(
      /^failed: same answer: with a wrong key, GET \/pets\/\d+ \(an existing animal\) answered 401 and GET \/pets\/9007199254740991 \(no such animal\) answered 404/,
    );
    // A malformed id leaks nothing: it gets the same 404 whatever the key.
    expect(outcome(report, 'auth.getPet.beforeValidation')).toBe('passed');
    expect(outcome(report, 'auth.getPet.wrongKey')).toBe('passed');
  });
});
