/**
 * Generated cases never fail a server for a choice the interface leaves open (the fake making every other
 * allowed choice passes with several seeds; the reference mock too, in test/conformance-against-mock.test.ts);
 * the same seed sends the same requests
 * and gives the same report; read-only runs generate only reads, and prefixed runs keep every name
 * recognisable and say what they skipped.
 */
import { describe, expect, it } from 'vitest';
import { type Report, runConformance } from '../index.ts';
import { renderJson, renderJunit, renderPretty } from '../report/index.ts';
import {
  EVERY_ALLOWED_CHOICE,
  type FakeChoices,
  type FakePetstore,
  type FakePetstoreOptions,
  startFakePetstore,
} from './fake-petstore.ts';

const ALL_CHOICES: FakeChoices = EVERY_ALLOWED_CHOICE;
const SEEDS = [1, 2, 3];

async function withFake<T>(options: FakePetstoreOptions, run: (fake: FakePetstore) => Promise<T>): Promise<T> {
  const fake = await startFakePetstore(options);
  try {
    return await run(fake);
  } finally {
    await fake.close();
  }
}

const outcomes = (r: Report, outcome: string): string[] =>
  r.cases.filter((c) => c.outcome === outcome).map((c) => `${c.id}: ${c.reason ?? ''}`);

describe('servers that conform pass with generation on', () => {
  it.each(SEEDS)(
    'the fake making every other allowed choice, seed %i: no failure, no warning, the refusal noted as information',
    async (seed) => {
      await withFake({ choices: ALL_CHOICES }, async (fake) => {
        const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey, generate: 200, seed });
        expect(outcomes(report, 'failed')).toEqual([]);
        const warned = report.cases.filter((c) => c.outcome === 'warned' && c.id.startsWith('generated.'));
        expect(warned.map((c) => c.id)).toEqual([]);
        const noted = report.cases.filter((c) => c.outcome === 'info' && c.id.startsWith('generated.'));
        expect(noted.map((c) => c.id)).toEqual(['generated.createPet.validRefused']);
        expect(noted[0]!.exchanges.some((e) => e.response?.status === 400)).toBe(true);
      });
    },
    60_000,
  );
});

/** The report without what differs from run to run by nature: times, and the fake's port. */
function stable(text: string, url: string): string {
  return text
    .replaceAll(new URL(url).origin, 'http://fake')
    .replace(/"(durationMs|startedAt)": [^,\n]+/g, '"$1": 0')
    .replace(/(time|timestamp)="[^"]*"/g, '$1=""')
    .replace(/Took \d+ ms/, 'Took 0 ms');
}

async function recorded(seed: number): Promise<{ requests: string[]; reports: string[] }> {
  return withFake({}, async (fake) => {
    const report = await runConformance({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      runId: 'same',
      only: ['generated'],
      generate: 60,
      seed,
    });
    const requests = fake.requests.map((r, i) => `${r}\n${fake.bodies[i]}`);
    const reports = [renderJson(report), renderPretty(report), renderJunit(report)].map((t) => stable(t, fake.url));
    return { requests, reports };
  });
}

describe('seeding', () => {
  it('the same seed sends the same requests byte for byte and gives the same reports; another seed does not', async () => {
    const a = await recorded(5);
    const b = await recorded(5);
    const c = await recorded(6);
    expect(a.requests.length).toBeGreaterThan(180);
    expect(b.requests).toEqual(a.requests);
    expect(b.reports).toEqual(a.reports);
    expect(c.requests).not.toEqual(a.requests);
    for (const text of a.reports) expect(text).toMatch(/seed[=" :]+5|"seed": 5/);
  }, 60_000);
});

describe('selection', () => {
  it('selecting only generated cases without generate is refused: nothing would be tested', async () => {
    await expect(
      runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', only: ['generated.listPets'] }),
    ).rejects.toMatchObject({ code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS', message: /generate is 0/ });
  });
});

describe('safety on shared environments', () => {
  it('read-only generates only reads: no create at all, and says so', async () => {
    await withFake({}, async (fake) => {
      const report = await runConformance({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        readOnly: true,
        generate: 100,
        only: ['generated'],
      });
      expect(fake.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
      expect(report.created.count).toBe(0);
      expect(report.generation).toMatchObject({ readOnly: true, created: 0, sent: { createPet: 0 } });
      const creates = report.cases.filter((c) => c.id.startsWith('generated.createPet.'));
      expect(creates.every((c) => c.outcome === 'skipped' && c.reason?.startsWith('read-only'))).toBe(true);
      expect(outcomes(report, 'failed')).toEqual([]);
      expect(renderPretty(report)).toContain('Generated 100 requests per operation (reads only) with seed 1');
    });
  });

  it('with prefixed names every generated name carries the run prefix; the empty name is skipped and counted', async () => {
    await withFake({}, async (fake) => {
      const report = await runConformance({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        runId: 'pfx',
        prefixNames: true,
        generate: 150,
        only: ['generated'],
      });
      const names = fake.bodies.flatMap((b) => {
        try {
          const v = JSON.parse(b) as unknown;
          const o = (Array.isArray(v) ? v[0] : v) as { name?: unknown } | null;
          return typeof o?.name === 'string' ? [o.name] : [];
        } catch {
          return [];
        }
      });
      expect(names.length).toBeGreaterThan(100);
      expect(names.filter((n) => !n.startsWith('conformance-pfx-'))).toEqual([]);
      const created = [...fake.pets.values()].filter((p) => p.id > 150);
      expect(created.every((p) => p.name.startsWith('conformance-pfx-'))).toBe(true);
      expect(report.created.count).toBe(created.length);
      expect(report.generation!.created).toBe(created.length);
      const skipped = report.generation!.skipped.find((s) => s.reason.includes('empty name'));
      expect(skipped!.count).toBeGreaterThan(0);
      expect(renderPretty(report)).toContain(`Skipped ${skipped!.count} generated value`);
      expect(outcomes(report, 'failed')).toEqual([]);
    });
  });
});
