/**
 * The read-back (issue 45 §10): every animal the run created is fetched again at the end and judged against the
 * schema and what was sent, so a store that keeps something other than what it answered is caught even when no
 * listing reaches the animal; what a server stored from a body it should have refused is shown as
 * information beside that create's cause, not as a new cause.
 */
import { describe, expect, it } from 'vitest';
import { runOnFake } from './fake-petstore.ts';

const runOn = runOnFake;

describe('the read-back', () => {
  it('catches a store that keeps another status than it answered, which no listing reaches', async () => {
    // 450 seeded animals: a listing of at most 100 (each status has over 100), in id order, never reaches what the
    // run creates, and no filtered listing is known complete.
    const broken = { violations: ['soldStoredAsAvailable' as const], count: 450 };
    const without = await runOn(broken, { skip: ['getPet.readBack'] });
    // The run before the read-back existed: nothing failed.
    expect(without.cases.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
    const report = await runOn(broken);
    const readBack = report.cases.find((c) => c.id === 'getPet.readBack')!;
    expect(readBack.outcome).toBe('failed');
    const failed = readBack.checks.filter((k) => !k.ok);
    // Each animal the run created as sold (the shared create and the cases' own), and only those.
    expect(failed.length).toBeGreaterThan(0);
    for (const k of failed) {
      expect(k.message).toBe('an animal answered 201 as sent is stored otherwise');
      expect(k.details).toEqual([
        expect.stringMatching(/^id \d+ \(create #\d+, POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets\)$/),
        'status: sent "sold", stored "available"',
      ]);
    }
    expect(report.ok).toBe(false);
    const causes = report.causes ?? [];
    expect(causes.map((c) => [c.statement, c.cases])).toEqual([
      ['getPet: as sent: an animal answered 201 as sent is stored otherwise', ['getPet.readBack']],
    ]);
  }, 120_000);

  it('reads back every animal the run created, once each, and passes on a server that keeps them', async () => {
    const report = await runOn({});
    const readBack = report.cases.find((c) => c.id === 'getPet.readBack')!;
    expect(readBack.outcome).toBe('passed');
    const fetched = readBack.exchanges.map((ex) => ex.request.url.replace(/^.*\/pets\//, ''));
    // Fetched a few at a time: each once, in whatever order the answers came.
    expect(fetched.map(Number).sort((a, b) => a - b)).toEqual([...report.created.ids].sort((a, b) => a - b));
    expect(fetched.length).toBeGreaterThan(0);
  }, 120_000);

  it('a status: true stored is shown by the read-back as what the create let in, the create’s cause alone', async () => {
    const report = await runOn({ violations: ['looseEnumStatus'] }, { only: ['createPet', 'getPet'] });
    const readBack = report.cases.find((c) => c.id === 'getPet.readBack')!;
    const cause = (report.causes ?? []).find((c) => c.statement.endsWith('when status is a boolean'))!;
    expect(cause.cases).toContain('createPet.invalid.statusTrue');
    // No cause of the read-back's own: what it kept is that create's finding, shown as information.
    expect((report.causes ?? []).filter((c) => c.cases.includes('getPet.readBack'))).toEqual([]);
    expect(readBack.outcome).toBe('passed');
    const stored = readBack.checks.filter((k) => k.info && /"status": ?true/.test(k.message));
    expect(stored.map((k) => k.message)).toEqual([
      expect.stringMatching(
        /sent a body the contract requires refused \(.*"status": true\}\): stored as \{.*"status":true\}$/,
      ),
    ]);
  }, 120_000);

  it('in a read-only run there is nothing to read back: skipped, never passed', async () => {
    const report = await runOn({}, { readOnly: true });
    const readBack = report.cases.find((c) => c.id === 'getPet.readBack')!;
    expect([readBack.outcome, readBack.reason]).toEqual(['skipped', 'read-only: the run created nothing to read back']);
    expect(readBack.exchanges).toEqual([]);
  }, 120_000);
});
