/**
 * The suite never fails a server for a choice the interface leaves open, and
 * runConformance's modes: strict, read-only, baselines, key redaction, and the
 * errors for runs that cannot happen.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { allCases, ConformanceError, type Report, runConformance } from '../index.ts';
import { REPORTER_TABLE, renderJson, renderJunit, renderPretty } from '../report/index.ts';
import { EVERY_ALLOWED_CHOICE, type FakePetstoreOptions, startFakePetstore } from './fake-petstore.ts';

const ADVICE = [
  'getPet.deprecationHeaders',
  'auth.wwwAuthenticate',
  'auth.bearerLowercase',
  'createPet.invalid.nonJsonContentType',
  'createPet.categoryId.notation',
  'listPets.absoluteForm',
];
/** Preferences no RFC or contract text backs: noted as information, never warned, never failed. */
const INFO = [
  'listPets.limit.invalid.rejected',
  'listPets.status.unknown.rejected',
  'auth.listPets.beforeValidation.prefers401',
  'auth.createPet.beforeValidation.prefers401',
  'auth.getPet.beforeValidation.prefers401',
];

const CHOICES = EVERY_ALLOWED_CHOICE;

async function withFake(
  options: FakePetstoreOptions,
  run: (url: string, key: string, fake: Awaited<ReturnType<typeof startFakePetstore>>) => Promise<void>,
): Promise<void> {
  const fake = await startFakePetstore(options);
  try {
    await run(fake.url, fake.apiKey, fake);
  } finally {
    await fake.close();
  }
}

function ids(report: Report, outcome: string): string[] {
  return report.cases.filter((c) => c.outcome === outcome).map((c) => c.id);
}

describe('choices the interface leaves open', () => {
  it.each(Object.keys(CHOICES))('%s alone fails nothing', async (choice) => {
    await withFake({ choices: { [choice]: CHOICES[choice as keyof typeof CHOICES] } }, async (url, key) => {
      const report = await runConformance({ baseUrl: url, apiKey: key });
      expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
      expect(ids(report, 'warned').every((id) => ADVICE.includes(id))).toBe(true);
      expect(ids(report, 'info').every((id) => INFO.includes(id))).toBe(true);
    });
  });

  it('all of them at once: zero failures, only advice warnings, and every advice case warns', async () => {
    await withFake({ choices: CHOICES }, async (url, key) => {
      const report = await runConformance({ baseUrl: url, apiKey: key });
      expect(ids(report, 'failed')).toEqual([]);
      expect(ids(report, 'warned').sort()).toEqual([...ADVICE].sort());
      // A lenient listing takes limit=0&status=adopted, so listPets has nothing to validate before the key: it gets 401.
      const lenientListing = 'auth.listPets.beforeValidation.prefers401';
      expect(ids(report, 'info').sort()).toEqual(INFO.filter((id) => id !== lenientListing).sort());
      expect(report.ok).toBe(true);
      expect(report.created.ids.every((id) => id > 2 ** 32)).toBe(true);
    });
  });

  it('a categoryId beyond 2^53 kept exactly is accepted: 201, the digits echoed as sent', async () => {
    await withFake({ choices: { bigCategoryExact: true } }, async (url, key, fake) => {
      const report = await runConformance({ baseUrl: url, apiKey: key, only: ['createPet.categoryId.beyond2pow53'] });
      const c = report.cases[0]!;
      expect([c.id, c.outcome]).toEqual(['createPet.categoryId.beyond2pow53', 'passed']);
      expect(c.exchanges[0]!.response?.status).toBe(201);
      expect(c.exchanges[0]!.response?.body).toMatch(/"categoryId":9007199254740993[,}]/);
      expect([...fake.pets.values()].at(-1)?.categoryId).toBe(9007199254740993n);
    });
  });

  it('inexact categoryIds kept as sent, with the unknown members echoed, pass: the top-level member is judged', async () => {
    await withFake({ choices: { inexactKeptExact: true, keepUnknown: true } }, async (url, key) => {
      const report = await runConformance({ baseUrl: url, apiKey: key, only: ['createPet.categoryId.inexact'] });
      const c = report.cases[0]!;
      expect([c.id, c.outcome, c.reason]).toEqual(['createPet.categoryId.inexact', 'passed', undefined]);
      // The nested body's answer echoes `tags` first, with a "categoryId": 7 in it, before the member judged.
      const nested = c.exchanges.find((e) => e.request.body?.includes('"tags"'))!;
      expect(nested.response?.status).toBe(201);
      expect(nested.response?.body).toMatch(/"tags":.*"categoryId":7.*"categoryId":99\.99999999999999999[,}]/);
      expect(c.exchanges.filter((e) => e.response?.status === 201)).toHaveLength(3);
    });
  });

  it('a create that carries a client id answered with a 400 Error is accepted', async () => {
    await withFake({ choices: { clientId400: true } }, async (url, key, fake) => {
      const report = await runConformance({ baseUrl: url, apiKey: key, only: ['createPet.clientId'] });
      const c = report.cases[0]!;
      expect([c.id, c.outcome]).toEqual(['createPet.clientId.noOverwrite', 'passed']);
      const withId = c.exchanges.find((e) => e.request.method === 'POST' && e.request.body?.includes('"id":'));
      expect(withId?.response?.status).toBe(400);
      expect([...fake.pets.values()].some((p) => p.name.endsWith('-client-id'))).toBe(false);
    });
  });

  it('--strict turns advice and extra Pet fields into failures, and leaves information as it is', async () => {
    await withFake({ choices: CHOICES }, async (url, key) => {
      const report = await runConformance({ baseUrl: url, apiKey: key, strict: true });
      const failed = ids(report, 'failed');
      // The media-type advice stays a warning: what it advises against is something the contract allows.
      const warnOnly = 'createPet.invalid.nonJsonContentType';
      for (const id of [...ADVICE.filter((a) => a !== warnOnly), 'listPets.ok', 'createPet.full', 'getPet.existing'])
        expect(failed).toContain(id);
      expect(ids(report, 'warned')).toEqual([warnOnly]);
      expect(failed.filter((id) => INFO.includes(id))).toEqual([]);
      const details = report.cases.find((c) => c.id === 'listPets.ok')?.checks.flatMap((c) => c.details ?? []) ?? [];
      expect(details.join('\n')).toMatch(/\/0 must NOT have unevaluated properties \((tags|createdAt)\)/);
      expect(report.ok).toBe(false);
    });
  });
});

describe('modes', () => {
  it('read-only sends GET only, skips every case that would send a POST with the reason, and says what it did not check', async () => {
    await withFake({}, async (url, key, fake) => {
      const before = fake.pets.size;
      const report = await runConformance({ baseUrl: url, apiKey: key, readOnly: true });
      expect(fake.pets.size).toBe(before);
      // The fake records every request's method: a read-only run sends GET only (no wrong-key or malformed POST).
      expect(fake.requests.length).toBeGreaterThan(10);
      expect(fake.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
      expect(report.cases.find((c) => c.id === 'getPet.existing')?.outcome).toBe('passed');
      const post = report.cases.filter((c) => c.operationId === 'createPet');
      expect(post.map((c) => c.id)).toEqual(
        expect.arrayContaining(['createPet.full', 'auth.createPet.beforeValidation', 'auth.createPet.wrongKey']),
      );
      expect(post.every((c) => c.outcome === 'skipped' && c.reason === 'read-only: sends no POST')).toBe(true);
      expect(ids(report, 'failed')).toEqual([]);
      expect(report.created.count).toBe(0);
      // The read-back (getPet) has nothing to fetch when nothing was created: not checked either.
      expect(report.notChecked).toBe(
        `createPet (POST /pets), ${post.length} cases; getPet (GET /pets/{petId}), 1 case: a read-only run sends GET only`,
      );
      expect(renderPretty(report)).toContain(`Not checked: createPet (POST /pets), ${post.length} cases`);
    });
  });

  // A conforming server gets at most eighteen creates: the four shared animals (available, pending, sold, no status),
  // the two labelled application/json in other ways (createPet.jsonLabels), the categoryIds 0 and 10^15 (createPet.categoryId.int64),
  // the same two written in four other notations (createPet.categoryId.notation),
  // the categoryId beyond 2^53 and the three inexact ones (createPet.categoryId.inexact) when it keeps them exactly, the
  // create carrying a client id when it ignores the id, and the unlabelled body when it reads it. Every other POST is
  // one a conforming server refuses (invalid bodies, wrong credentials).
  it.each([
    ['refuses the big categoryId', {}, 13],
    ['keeps the big categoryId exactly', { bigCategoryExact: true }, 14],
    ['keeps it and refuses a client id', { bigCategoryExact: true, clientId400: true }, 13],
  ] as const)(
    'creates few animals, all named with the run id, and says how many: a server that %s gets %i',
    async (_name, choices, count) => {
      await withFake({ choices }, async (url, key, fake) => {
        const before = fake.pets.size;
        const report = await runConformance({ baseUrl: url, apiKey: key, runId: 'r42' });
        const created = [...fake.pets.values()].slice(before);
        expect(ids(report, 'failed')).toEqual([]);
        expect(created.length).toBe(count);
        expect(report.created.count).toBe(count);
        expect(renderPretty(report)).toContain(`Created ${count} animals named conformance-r42-*`);
        expect(created.every((p) => p.name.startsWith('conformance-r42-'))).toBe(true);
      });
    },
  );

  it('sends every request through an injected undici dispatcher, and leaves it open', async () => {
    await withFake({}, async (url, key, fake) => {
      const agent = new Agent();
      const seen: string[] = [];
      const counting: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
        seen.push(`${opts.method} ${opts.path}`);
        return dispatch(opts, handler);
      };
      const dispatcher = agent.compose(counting);
      try {
        const report = await runConformance({ baseUrl: url, apiKey: key, dispatcher });
        expect(report.ok).toBe(true);
        expect(seen.length).toBeGreaterThan(report.cases.length);
        expect([...seen].sort()).toEqual([...fake.requests].sort());
        const after = await dispatcher.request({
          origin: new URL(url).origin,
          path: '/v1/pets?limit=1',
          method: 'GET',
          headers: { authorization: `Bearer ${key}` },
        });
        await after.body.dump();
        expect(after.statusCode).toBe(200);
      } finally {
        await agent.close();
      }
    });
  });

  it('a baseline of known failures makes the report ok and names the fixed ones', async () => {
    await withFake({ violations: ['basicAccepted'] }, async (url, key) => {
      const baseline = ['auth.listPets.basic', 'auth.createPet.basic', 'auth.getPet.basic', 'getPet.unknown'];
      const report = await runConformance({ baseUrl: url, apiKey: key, baseline });
      expect(report.ok).toBe(true);
      expect(report.baseline).toEqual({ known: baseline.slice(0, 3), fixed: ['getPet.unknown'], unexpected: [] });
      expect(renderPretty(report)).toContain('Fixed since the baseline: getPet.unknown');
    });
  });

  it('the key never reaches any report, even when the server echoes it', async () => {
    await withFake(
      { violations: ['basicAccepted', 'create200'], choices: { echoAuthorization: true } },
      async (url, key) => {
        const report = await runConformance({ baseUrl: url, apiKey: key });
        expect(report.summary.failed).toBeGreaterThan(0);
        const basic = Buffer.from(`conformance:${key}`).toString('base64');
        for (const text of [renderPretty(report), renderJson(report), renderJunit(report)]) {
          expect(text).not.toContain(key);
          expect(text).not.toContain(basic);
          expect(text).toContain('[REDACTED]');
        }
      },
    );
  });
});

describe('runs that cannot happen', () => {
  it('bad options', async () => {
    await expect(runConformance({ baseUrl: 'not a url', apiKey: 'k' })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
    });
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: '' })).rejects.toBeInstanceOf(
      ConformanceError,
    );
  });

  it('an unreachable target', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    await once(server, 'close');
    await expect(runConformance({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k' })).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_UNREACHABLE',
    });
  });

  it('a key rejected on every call: the run says so first in every reporter, and judges no case on those 401s', async () => {
    await withFake({}, async (url) => {
      const error = await runConformance({ baseUrl: url, apiKey: 'not-the-key', exchangeLog: true }).catch(
        (err: unknown) => err,
      );
      expect(error).toMatchObject({ code: 'PETSTORE_CONFORMANCE_KEY_REJECTED' });
      const report = (error as ConformanceError).report;
      if (!report) throw new Error('the ended run carries no report');
      // The 401s to the run's key are not the server's failures: not judged, and no cause is made of them.
      expect(ids(report, 'failed')).toEqual([]);
      expect(report.causes ?? []).toEqual([]);
      expect(report.cases.find((c) => c.id === 'listPets.ok')).toMatchObject({
        outcome: 'skipped',
        reason: expect.stringContaining('not judged: the API key was rejected'),
      });
      // A case that sent no key is still judged on its own answer.
      expect(report.cases.find((c) => c.id === 'auth.wwwAuthenticate')?.outcome).toBe('passed');
      for (const [name, reporter] of Object.entries(REPORTER_TABLE)) {
        const text = reporter.render(report, {});
        const ended = text.indexOf('PETSTORE_CONFORMANCE_KEY_REJECTED');
        expect(ended, name).toBeGreaterThan(-1);
        // Before any case, cause or status line: nothing judged is read before why the run ended.
        for (const later of ['listPets.ok', 'auth.wwwAuthenticate', 'GET /pets'])
          if (text.includes(later)) expect(ended, `${name}: ${later}`).toBeLessThan(text.indexOf(later));
      }
    });
  });
});

describe('short keys', () => {
  it('a one-character key is hidden without breaking the report, or the case ids and titles it occurs in', async () => {
    await withFake(
      { apiKey: 'k', violations: ['basicAccepted'], choices: { echoAuthorization: true } },
      async (url, key) => {
        const report = await runConformance({ baseUrl: url, apiKey: key });
        const cases = allCases();
        expect(cases.map((c) => c.id)).toContain('listPets.ok');
        expect(report.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id));
        expect(report.cases.map((c) => c.title)).toEqual(cases.map((c) => c.title));
        expect(report.statusTable.flatMap((e) => e.caseIds).every((id) => cases.some((c) => c.id === id))).toBe(true);
        const echoed = report.cases
          .flatMap((c) => c.exchanges)
          .map((e) => e.response?.headers['x-echo-authorization'])
          .filter(Boolean);
        expect(echoed).toContain('Bearer [REDACTED]');
        expect(report.cases.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([
          'auth.listPets.basic',
          'auth.createPet.basic',
          'auth.getPet.basic',
        ]);
        // Failures render their exchanges as curl lines: the report's own field names must have survived.
        expect(renderPretty(report, { color: false })).toContain('curl ');
        expect(JSON.parse(renderJson(report)).cases[0]).toHaveProperty('exchanges');
        expect(renderJunit(report)).toContain('<failure');
      },
    );
  });
});
