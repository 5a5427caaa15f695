/**
 * A request that two cases judge by different rules from the same answer is sent once: the tolerating case and the
 * information that prefers a refusal read one answer to `limit=abc`, the wrong-key cases and the challenge read one
 * refusal. A request whose answer depends on what came before it (the read-back's fetch of an animal the run
 * created, after everything else) is still sent again.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { startFakePetstore } from './fake-petstore.ts';

describe('requests two cases read', () => {
  it('go out once, are recorded in both cases, and state-dependent reads still go out again', async () => {
    const fake = await startFakePetstore();
    try {
      const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey });
      expect(report.ok).toBe(true);
      const sent = fake.requests.map((r, i) => `${r} ${fake.headers[i]?.authorization ?? ''}`);
      const times = (request: string) => sent.filter((s) => s === request).length;
      const withKey = `Bearer ${fake.apiKey}`;
      const refused = (path: string) => `GET ${new URL(fake.url).pathname}${path} ${withKey}`;
      for (const path of ['/pets?limit=abc', '/pets?limit=0', '/pets?status=adopted', '/pets'])
        expect(times(refused(path)), path).toBe(1);
      expect(times(`GET ${new URL(fake.url).pathname}/pets `), 'GET /pets without a key').toBe(1);

      const urlsOf = (id: string) =>
        report.cases.find((c) => c.id === id)!.exchanges.map((ex) => new URL(ex.request.url).search);
      expect(urlsOf('listPets.limit.nonInteger')).toContain('?limit=abc');
      expect(urlsOf('listPets.limit.invalid.rejected')).toContain('?limit=abc');

      // The read-back fetches again what createPet.fetchable fetched: the answer may have changed since.
      const fetched = report.cases.find((c) => c.id === 'createPet.fetchable')!.exchanges.at(-1)!.request.url;
      expect(times(`GET ${new URL(fetched).pathname} ${withKey}`)).toBeGreaterThan(1);
    } finally {
      await fake.close();
    }
  });
});
