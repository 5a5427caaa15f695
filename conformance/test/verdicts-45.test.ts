/**
 * Verdicts, round three (issue 45): no required failure without the contract's sentence, one root one cause, and
 * each cause explained right. Each fake is a class of ordinary server; broken-servers.test.ts holds the new inputs.
 */
import { describe, expect, it } from 'vitest';
import { samePageBut, varyingTokens } from '../cases/auth-leaks.ts';
import { runOnFake } from './fake-petstore.ts';

const runOn = runOnFake;

describe('no required failure without a contract sentence', () => {
  it('a server that parses a JSON body sent as text/plain is warned, never failed, --strict included', async () => {
    for (const strict of [false, true]) {
      const report = await runOn({ choices: { nonJsonParsed: true } }, { strict, only: ['createPet.invalid'] });
      const c = report.cases.find((r) => r.id === 'createPet.invalid.nonJsonContentType')!;
      expect([c.level, c.outcome, c.basis]).toEqual(['advice', 'warned', expect.stringMatching(/RFC 9110 §15\.5\.16/)]);
      expect(report.cases.filter((r) => r.outcome === 'failed').map((r) => r.id)).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });
});

describe('one root, one cause', () => {
  it("a router's HTML 404 for a malformed id is one cause, judged by the case that owns the request", async () => {
    const report = await runOn({ violations: ['routerHtml404'] }, { only: ['getPet', 'auth.getPet'] });
    expect(report.cases.find((c) => c.id === 'auth.getPet.beforeValidation')?.outcome).toBe('passed');
    const causes = report.causes ?? [];
    expect(causes.map((c) => c.statement)).toEqual([
      expect.stringMatching(/^answers with the wrong media type: expected application\/json, got "text\/html"/),
    ]);
    expect(causes[0]!.cases.sort()).toEqual(['getPet.malformed', 'getPet.malformed.trailing']);
  });

  it('two rules accepted are two causes, each with its own request', async () => {
    const report = await runOn({ violations: ['looseEnumStatus', 'firstValueDecoder'] }, { only: ['createPet'] });
    const accepted = (report.causes ?? []).filter((c) => /^POST \/v1\/pets answers 201 /.test(c.statement));
    expect(accepted.map((c) => c.statement).sort()).toEqual([
      'POST /v1/pets answers 201 where the contract requires 400 when data follows the JSON value',
      'POST /v1/pets answers 201 where the contract requires 400 when status is a boolean',
    ]);
    const byRule = (rule: string) => accepted.find((c) => c.statement.endsWith(rule))!;
    expect(byRule('status is a boolean').request?.body).toMatch(/"status": (true|false)\}$/);
    expect(byRule('data follows the JSON value').request?.body).toMatch(/\}(xyz|\{"x": 1\})$/);
    expect(byRule('data follows the JSON value').cases.sort()).toEqual([
      'createPet.invalid.trailingText',
      'createPet.invalid.trailingValue',
    ]);
  });
});

describe('each cause explained right', () => {
  it('a listing answered null names the root schema, Pets, and shows the value', async () => {
    const report = await runOn({ violations: ['listNull'] }, { only: ['listPets'] });
    const statements = (report.causes ?? []).map((c) => c.statement);
    expect(statements).toContain('`Pets` must be array (got null)');
    expect(statements.join('\n')).not.toMatch(/`Pet` must be array/);
  });
});

describe('every distinct failure is reported', () => {
  it('a generated property reports each rule a server accepted, each shrunk on its own and a cause of its own', async () => {
    // Two bugs behind one check: `status: true` passes a loose comparison, a categoryId beyond int64 saturates.
    const report = await runOn(
      { violations: ['looseEnumStatus', 'saturatingIds'], count: 20 },
      { generate: 150, seed: 7, only: ['generated.createPet.invalidRefused'] },
    );
    const failed = report.cases.filter((c) => c.outcome === 'failed');
    const rules = failed.map((c) => c.checks[0]?.rule).sort();
    expect(rules).toEqual(['categoryId is beyond int64', 'status is a boolean']);
    expect(failed.map((c) => c.id).sort()).toEqual([
      'generated.createPet.invalidRefused',
      'generated.createPet.invalidRefused.2',
    ]);
    for (const c of failed) {
      // Shrunk on its own: the last request of each is the create that broke its own rule.
      const body = c.exchanges.at(-1)!.request.body ?? '';
      expect(body).toMatch(c.checks[0]!.rule === 'status is a boolean' ? /"status":true/ : /"categoryId":\d{19,}/);
    }
    const causes = (report.causes ?? []).map((c) => c.statement).sort();
    expect(causes).toEqual([
      'POST /v1/pets answers 201 where the contract requires 400 when categoryId is beyond int64',
      'POST /v1/pets answers 201 where the contract requires 400 when status is a boolean',
    ]);
  }, 120_000);
});

describe('the same router page whatever the key', () => {
  it('differs only where two answers to one request differ (a request id); a word that differs is a difference', () => {
    const page = (id: string, word = 'Not Found') => `<html><!-- Request ID: ${id} --><body>${word}</body></html>`;
    const varying = varyingTokens(page('bwLxLE4_nDl4'), page('pACh-QNDnAZt'))!;
    expect([...varying]).toHaveLength(1);
    // A random id with no digit, or all capitals: where the id stands, any id.
    expect(samePageBut(page('xn8BVKsqnGb3'), page('xWbtefatHHGO'), varying)).toBe(true);
    expect(samePageBut(page('xn8BVKsqnGb3'), page('ABCDEFGHIJKL'), varying)).toBe(true);
    // Where the server wrote the same both times, a word that differs is a difference, whatever it looks like.
    expect(samePageBut(page('xn8BVKsqnGb3', 'NOT_FOUND'), page('xn8BVKsqnGb3', 'FORBIDDEN'), varying)).toBe(false);
    expect(samePageBut(page('a1', 'NotFound'), page('a1', 'NoAccess'), varying)).toBe(false);
    expect(samePageBut('{"count":7}', '{"count":8}', new Set())).toBe(false);
    expect(samePageBut(page('bwLxLE4_nDl4'), `${page('xn8BVKsqnGb3')} `, varying)).toBe(false);
    expect(varyingTokens(page('x'), `${page('x')} <p>more</p>`)).toBeUndefined();
  });
});
