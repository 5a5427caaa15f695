/**
 * Verdicts that must be true on servers written the ordinary way (issue 34): what a skip says was missing, a
 * router's key-independent refusal of a malformed id, advice only with a basis, and bytes that are not UTF-8.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import invalidNewPets from '../../fixtures/invalid-new-pets.json' with { type: 'json' };
import { hasRawBytes, percentEncode, rawBytes, toBytes } from '../client/bytes.ts';
import { generatedProperties } from '../generate/catalog.ts';
import { petRefArb, statusArb } from '../generate/params.ts';
import { invalidBodyArb, invalidBodyText, isInvalidNewPet, ruleOf } from '../generate/values.ts';
import { allCases, type Report, runConformance } from '../index.ts';
import { renderCurl, renderHtml, renderJson, renderJunit, renderPretty } from '../report/index.ts';
import { runOnFake, startFakePetstore } from './fake-petstore.ts';

const runOn = runOnFake;

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

describe('advice has a basis; a preference without one is information', () => {
  it('every advice case, fixed or generated, names its basis: an RFC section or the contract', () => {
    const advice = [...allCases(), ...generatedProperties()].filter((c) => c.level === 'advice');
    expect(advice.map((c) => c.id).sort()).toEqual([
      'auth.bearerLowercase',
      'auth.wwwAuthenticate',
      'createPet.categoryId.notation',
      'createPet.invalid.nonJsonContentType',
      'getPet.deprecationHeaders',
      'listPets.absoluteForm',
    ]);
    for (const c of advice) expect(c.basis, c.id).toMatch(/RFC \d+ §|contract/);
  });

  it('the open choices are information: noted in every reporter, never a failure, --strict included', async () => {
    const INFO = [
      'auth.createPet.beforeValidation.prefers401',
      'auth.getPet.beforeValidation.prefers401',
      'listPets.limit.invalid.rejected',
      'listPets.status.unknown.rejected',
    ];
    for (const strict of [false, true]) {
      const report = await runOn(
        { choices: { lenient: true, validationBeforeAuth: true } },
        { strict, only: ['listPets', 'auth'] },
      );
      expect(
        report.cases
          .filter((c) => c.outcome === 'info')
          .map((c) => c.id)
          .sort(),
      ).toEqual(INFO);
      expect(report.summary.info).toBe(INFO.length);
      expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(renderPretty(report)).toMatch(/^INFO listPets\.limit\.invalid\.rejected \(information\)/m);
      expect(renderPretty(report)).toContain('4 information cases noted');
      expect(renderJunit(report)).toMatch(/<system-out>information \(never a failure\): /);
      expect(renderJunit(report)).toContain('<property name="information" value="4"/>');
      expect(renderHtml(report)).toContain('<span class="tag info">INFO</span>');
      expect(JSON.parse(renderJson(report)).summary.info).toBe(4);
    }
  });

  it("prefers401 judges only the status: a 401 whose body is wrong is the required cases' failure, not a note", async () => {
    const report = await runOn({ violations: ['errorStatusMismatch'] }, { only: ['auth.listPets'] });
    expect(outcome(report, 'auth.listPets.beforeValidation.prefers401')).toBe('passed');
    expect(outcome(report, 'auth.listPets.wrongKey')).toMatch(/^failed: Error status/);
  });
});

describe('bytes that are not UTF-8', () => {
  it('a server that crashes on a body that is not UTF-8 is caught, by the fixed case and by generated requests', async () => {
    const report = await runOn({ violations: ['notUtf8Body500'] }, { generate: 60, only: ['createPet', 'generated'] });
    const failed = report.cases.filter((c) => c.outcome === 'failed');
    expect(failed.map((c) => c.id).sort()).toEqual(['createPet.invalid.notUtf8', 'generated.createPet.no5xx']);
    for (const c of failed) expect(c.reason).toMatch(/server error 500/);
    const generated = failed.find((c) => c.id === 'generated.createPet.no5xx')!;
    expect(generated.exchanges.at(-1)?.request.body).toMatch(/[\udc80-\udcff]/);
  });

  it('the curl line sends the same bytes the suite sent', async () => {
    const fake = await startFakePetstore({ violations: ['notUtf8Body500'] });
    try {
      const report = await runConformance({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        only: ['createPet.invalid.notUtf8'],
      });
      const request = report.cases[0]!.exchanges.find((e) => e.request.method === 'POST')!.request;
      const curl = renderCurl(request);
      expect(curl).toMatch(
        /--data-binary \$'\{"name": "conformance-[^']*-invalid-notUtf8\\xff\\xfe", "categoryId": 1\}'/,
      );
      const sent = fake.bodies.length;
      // The fake answers in this process, so curl runs beside it, not blocking it.
      await promisify(execFile)('bash', ['-c', `${curl} -o /dev/null`], { timeout: 10_000 });
      expect(fake.bodies.length).toBe(sent + 1);
      expect(fake.bodies.at(-1)).toBe(fake.bodies[sent - 1]);
      expect(Buffer.from(toBytes(request.body!)).includes(Buffer.of(0xff, 0xfe))).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it('the generator draws such bytes for bodies, query values and path segments, and sends them as bytes', () => {
    const texts = fc.sample(invalidBodyArb(), { numRuns: 400, seed: 7 }).map(invalidBodyText).filter(hasRawBytes);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every(isInvalidNewPet)).toBe(true);
    const statuses = fc.sample(statusArb(), { numRuns: 300, seed: 7 }).filter(hasRawBytes);
    expect(statuses.map(percentEncode).some((q) => /%(C3|FF|80|C0|ED|E2|F4)/.test(q))).toBe(true);
    const ids = fc.sample(petRefArb(), { numRuns: 600, seed: 7 }).filter((r) => r.kind === 'raw' && hasRawBytes(r.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(percentEncode(`a${rawBytes(0xff)}b`)).toBe('a%FFb');
  });
});

describe('a generated invalid body names the rule it breaks as the fixed table does', () => {
  it('a malformed body cut to nothing is the empty body (one cause with createPet.invalid.emptyBody), else not JSON', () => {
    const value = { name: 'x', categoryId: 1 };
    expect(ruleOf({ kind: 'malformed', value, cut: 0 })).toBe('the body is empty');
    expect(ruleOf({ kind: 'malformed', value, cut: 5 })).toBe('the body is not JSON');
    const empty = invalidNewPets.bodies.find((c) => c.id === 'emptyBody');
    expect(empty?.breaks).toBe('the body is empty');
  });
});
