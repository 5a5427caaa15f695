/**
 * State the run broke is traced to the request that broke it (issue 45 §11), and a curl line whose answer depends
 * on data says what it needs (§15). The fake's create stores an animal that carries a client `id`, then answers 500;
 * from then on every unfiltered listing answers 500. Judged without the run's history (the old code), the stored
 * animal is missing from what the run created and the dead listing is a cause of its own whose one request answers
 * 200 on a fresh server; judged with it, the animal is the run's, named with its create, and the listing's failure
 * is that create's consequence, with the earlier request its reproduction depends on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderReport, runConformance } from '../index.ts';
import { findCauses } from '../judge/causes.ts';
import type { CaseResult, ExchangeRequest } from '../types.ts';
import { type FakePetstore, type FakePetstoreOptions, startFakePetstore } from './fake-petstore.ts';

const fakes: FakePetstore[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(options: FakePetstoreOptions): Promise<FakePetstore> {
  const f = await startFakePetstore(options);
  fakes.push(f);
  return f;
}

/** Sends a reported request (its key hidden) to another fake, with that fake's key. */
async function replay(to: FakePetstore, request: ExchangeRequest): Promise<{ status: number; json: unknown }> {
  const url = new URL(request.url);
  const res = await fetch(`${to.url}${url.pathname.replace(/^\/v1/, '')}${url.search}`, {
    method: request.method,
    headers: { authorization: `Bearer ${to.apiKey}`, 'content-type': 'application/json' },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: res.status, json: await res.json() };
}

/** The results as the old code judged them: no cause, no consequence, no history. */
function withoutCauses(cases: readonly CaseResult[]): CaseResult[] {
  return cases.map(({ cause: _cause, consequence: _consequence, ...c }) => structuredClone(c));
}

describe('a create that answers 500 after storing the animal', () => {
  it('is traced: the animal is the run’s, the dead listing its consequence, the reproduction says what it needs', async () => {
    const broken: FakePetstoreOptions = { violations: ['clientIdStoredThen500'] };
    const server = await fake(broken);
    const report = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, runId: 'st', generate: 30 });

    // (a) The server stored it (its name is the run's), no 201 said so: counted and named with its create.
    const unanswered = report.created.unanswered ?? [];
    expect(unanswered).toHaveLength(1);
    const stored = unanswered[0]!;
    expect(server.pets.get(stored.id)?.name).toBe('conformance-st-client-id');
    expect(stored.answered).toBe('500');
    expect(stored.request).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets \{"id":\d+,"name":"conformance-st-client-id"/,
    );
    expect(report.created.ids).toContain(stored.id);
    expect(report.created.count).toBe(report.created.ids.length);
    const text = renderReport('pretty', report, { color: false });
    expect(text).toMatch(
      new RegExp(
        `^Created ${report.created.count} animals named conformance-st-\\* \\(.*; id ${stored.id} stored by a create that answered 500, no 201: POST `,
        'm',
      ),
    );

    // The old code: the dead listing is a cause of its own, "reproduced 3/3; shrunk to 1 request"...
    const listing = report.cases.find((c) => c.id === 'generated.listPets.no5xx')!;
    expect(listing.outcome).toBe('failed');
    expect(listing.exchanges).toHaveLength(1);
    const old = findCauses(withoutCauses(report.cases));
    const oldListing = old.find((c) => c.cases.includes('generated.listPets.no5xx'))!;
    expect(oldListing.statement).toBe('GET /v1/pets answers a server error (500)');
    // ...whose one request answers 200 on a fresh server.
    const fresh = await fake(broken);
    expect((await replay(fresh, listing.exchanges[0]!.request)).status).toBe(200);

    // (b) The new: no cause of the listing's own; it is the create's consequence, linked to its cause.
    const causes = report.causes ?? [];
    expect(causes.map((c) => c.statement)).not.toContain('GET /v1/pets answers a server error (500)');
    const create = causes.find((c) => c.cases.includes('createPet.clientId.noOverwrite'))!;
    expect(create.statement).toBe('POST /v1/pets answers a server error (500)');
    expect(create.consequences).toContain('generated.listPets.no5xx');
    expect(listing.cause).toBe(create.id);
    expect(listing.consequence).toMatch(
      new RegExp(
        `^fails only because of ${create.id}: GET /v1/pets answered 2xx earlier in the run and fails only since POST /v1/pets \\{"id":\\d+,"name":"conformance-st-client-id".* answered 500 and stored id ${stored.id}$`,
      ),
    );
    // Every case that failed only on a dead listing is the create's too.
    for (const c of report.cases.filter((r) => r.outcome === 'failed' && r.id !== 'createPet.clientId.noOverwrite'))
      expect([c.id, c.cause]).toEqual([c.id, create.id]);

    // (c) The reproduction names the request it depends on, and with it reproduces from a fresh state.
    const replayLine = listing.checks.find((k) => k.name === 'replay')!;
    expect(replayLine.message).toMatch(
      /shrunk to 1 request.*; it depends on an earlier request, POST \/v1\/pets \{"id":\d+,"name":"conformance-st-client-id".*: on a fresh server, send that first$/,
    );
    expect(listing.reason).toContain('it depends on an earlier request, POST /v1/pets');
    const again = await fake(broken);
    expect((await replay(again, create.request!)).status).toBe(500);
    expect((await replay(again, listing.exchanges[0]!.request)).status).toBe(500);
  }, 180_000);

  it('a server that stores nothing behind a 500 gets no such animal and no such consequence', async () => {
    const server = await fake({});
    const report = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, runId: 'st', generate: 30 });
    expect(report.ok).toBe(true);
    expect(report.created.unanswered).toBeUndefined();
    expect(report.cases.filter((c) => c.consequence !== undefined)).toEqual([]);
  }, 180_000);
});

describe('a curl line whose answer depends on data', () => {
  it('says what state it needs and gives the creates that make it on a fresh server', async () => {
    // The store keeps a created `sold` as `available`: the sold listing misses the run's sold animals.
    const broken: FakePetstoreOptions = { violations: ['soldStoredAsAvailable'], count: 0 };
    const server = await fake(broken);
    const report = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, runId: 'st' });
    const causes = report.causes ?? [];
    const listed = causes.find((c) => c.cases.includes('createPet.listed'))!;
    expect(listed.request?.url).toMatch(/\/v1\/pets\?status=sold&limit=100$/);
    expect(listed.needs?.state).toMatch(/^the answer depends on animals? [\d, ]+, which the run created/);
    expect(listed.needs!.setup.length).toBeGreaterThan(0);
    for (const r of listed.needs!.setup) expect(JSON.parse(r.body!)).toMatchObject({ status: 'sold' });
    // The listing alone on a fresh server shows nothing wrong (an empty list); after the creates, the bug.
    const fresh = await fake(broken);
    expect(await replay(fresh, listed.request!)).toEqual({ status: 200, json: [] });
    for (const r of listed.needs!.setup) expect((await replay(fresh, r)).status).toBe(201);
    expect(await replay(fresh, listed.request!)).toEqual({ status: 200, json: [] });
    expect(fresh.pets.size).toBe(listed.needs!.setup.length);
    // On a correct fresh server the same sequence lists them: the creates are what gives the curl line its meaning.
    const correct = await fake({ count: 0 });
    for (const r of listed.needs!.setup) expect((await replay(correct, r)).status).toBe(201);
    expect((await replay(correct, listed.request!)).json).toHaveLength(listed.needs!.setup.length);
    // A fetch of an id the run created says which create made it.
    const readBack = causes.find((c) => c.cases.includes('getPet.readBack'))!;
    const id = Number(readBack.request!.url.split('/').at(-1));
    expect(readBack.needs?.state).toBe(
      `the answer depends on animal ${id}, which the run created: on a fresh server, send the create below first and use the id it answers`,
    );
    expect(readBack.needs!.setup).toHaveLength(1);
    // The reports show it before the request's own curl line.
    const text = renderReport('pretty', report, { color: false });
    expect(text).toContain(`     needs: ${readBack.needs!.state}\n     $ curl -sS -i -X POST `);
    expect(renderReport('html', report)).toContain('<p class="needs">needs: the answer depends on');
  }, 120_000);
});
