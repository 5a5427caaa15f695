/**
 * The cases take the status values and the `limit` bounds from spec/, never
 * from a list typed again: with a spec that documents other ones, the cases follow.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CaseContext, CaseRequest, Exchange } from '../types.ts';

vi.mock('../../spec/index.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../spec/index.ts')>();
  return {
    ...actual,
    petStatuses: () => ['available', 'pending', 'sold', 'reserved'],
    listPetsLimit: () => ({ minimum: 2, maximum: 50, default: 10 }),
  };
});

const { allCases } = await import('../cases/index.ts');

/** The request paths a case sends, against a server that answers every request with 200 `[]`. */
async function pathsSentBy(id: string): Promise<string[]> {
  const sent: string[] = [];
  const answer = (request: CaseRequest): Exchange => ({
    request: { method: request.method, url: `http://h/v1${request.path}`, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '[]', bytes: 2, json: [] },
    durationMs: 0,
  });
  const ctx = {
    runId: 'r',
    strict: false,
    readOnly: false,
    name: (s: string) => `conformance-r-${s}`,
    send: async (request: CaseRequest) => (sent.push(request.path), answer(request)),
    sendOnce: async (request: CaseRequest) => (sent.push(request.path), answer(request)),
    check: () => {},
    skip: () => {},
    // Every control holds here: this test reads only the requests a case sends of its own.
    control: async () => true,
    notApplicable: () => {},
    knownPetId: async () => 1,
  } as unknown as CaseContext;
  await allCases()
    .find((c) => c.id === id)!
    .run(ctx);
  return sent;
}

describe('cases driven by the spec', () => {
  const ids = allCases().map((c) => c.id);

  it('make a list case and a create case for each documented status value', () => {
    for (const s of ['available', 'pending', 'sold', 'reserved']) {
      expect(ids).toContain(`listPets.status.${s}`);
      expect(ids).toContain(`createPet.status.${s}`);
    }
  });

  it('ask for the documented limit bounds and just outside them', async () => {
    expect(await pathsSentBy('listPets.limit.min')).toEqual(['/pets?limit=2']);
    expect(await pathsSentBy('listPets.limit.max')).toEqual(['/pets?limit=50']);
    expect(await pathsSentBy('listPets.limit.outOfRange')).toEqual([
      '/pets?limit=1',
      '/pets?limit=51',
      '/pets?limit=-1',
    ]);
    expect(await pathsSentBy('listPets.status.reserved')).toEqual(['/pets?status=reserved&limit=50']);
    expect(allCases().find((c) => c.id === 'listPets.limit.default')!.title).toContain('at most 10 animals');
  });
});
