/**
 * Property: the mock (the pure handler in its layers) answers any request with an allowed status and
 * a body valid by the spec, never a 5xx, never throws, and its store changes
 * exactly as the model says (a 201 adds one pet that reads back byte for
 * byte; nothing else changes anything but a reset).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../mock/core/mock.ts';
import type { ApiRequest, ApiResponse } from '../../mock/core/responses.ts';
import { seedPets } from '../../mock/core/seed.ts';
import { type GeneratedRequest, requestArbitrary } from './support/arbitraries.ts';
import { checkExchange, PetModel } from './support/oracle.ts';

/** Generated requests sent to the mock with no socket (see the report in test/reliability/README.md). */
const HANDLER_RUNS = 16_000;

const apiKeys = ['k3y-alpha-7f3a', 'k3y-beta-91c2'];

function toApiRequest(g: GeneratedRequest): ApiRequest {
  // A header sent twice reaches the handler as node:http gives it: the values joined with ", ".
  const headers: Record<string, string> = {};
  for (const [name, value] of g.extraHeaders) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  if (g.authorization !== undefined) headers.authorization = g.authorization;
  if (g.contentType !== undefined) headers['content-type'] = g.contentType;
  const request: ApiRequest = { method: g.method, url: g.url, headers };
  if (g.body !== undefined) request.body = g.body;
  if (g.bodyTooLarge) request.bodyTooLarge = true;
  return request;
}

describe('mock handler under generated requests', () => {
  it(`keeps every answer allowed and the store equal to the model (${HANDLER_RUNS} requests)`, async () => {
    const seeded = seedPets({ seed: 7, count: 40 });
    // The whole mock, layers and control endpoints included, as every adapter gets it.
    const { fetch: handler, pets } = createMock({ pets: seeded, apiKeys, journalSize: 50 });
    const model = new PetModel(seeded);
    const prototypes = () =>
      [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
    const pristine = prototypes();
    const get = async (id: number): Promise<ApiResponse> =>
      handler({ method: 'GET', url: `/v1/pets/${id}`, headers: { authorization: `Bearer ${apiKeys[0]}` } });
    let created = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary({ apiKeys, wire: false }), async (g) => {
        const request = toApiRequest(g);
        const response = await handler(request);
        const pet = checkExchange({ ...g, body: request.body }, response, { model, apiKeys, headStripped: false });
        if (pet) {
          created++;
          const again = await get(pet.id);
          expect(again.status).toBe(200);
          expect(again.body).toBe(response.body);
        }
        model.assertSame(await pets.all());
      }),
      { numRuns: HANDLER_RUNS },
    );
    // Every pet created since the last reset still reads back exactly as first returned.
    for (const [id, body] of model.created) expect((await get(id)).body).toBe(body);
    expect(created).toBeGreaterThan(HANDLER_RUNS / 20);
    // No `__proto__` or `constructor` key polluted a shared prototype.
    expect(prototypes()).toEqual(pristine);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
