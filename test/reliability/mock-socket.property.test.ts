/**
 * Property: the same generated requests, sent as exact bytes over a real
 * socket to the running mock (node:http adapter included), get allowed
 * answers only, never a 5xx, and leave the store exactly as the model says.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock/index.ts';
import { requestArbitrary, type GeneratedRequest } from './support/arbitraries.ts';
import { checkExchange, PetModel } from './support/oracle.ts';
import { rawExchange, type RawResponse } from './support/raw-http.ts';

/** Generated requests sent over the socket (see the report in test/reliability/README.md). */
export const SOCKET_RUNS = 5_000;

const apiKeys = ['k3y-alpha-7f3a', 'k3y-beta-91c2'];
let mock: MockServer;
let port: number;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 7, count: 40, apiKeys });
  port = Number(new URL(mock.origin).port);
});
afterAll(() => mock.close());

/** The request as bytes: header values are written as latin1 (obs-text stays one byte). */
function encode(g: GeneratedRequest): Buffer[] {
  const body = g.body === undefined ? undefined : Buffer.from(g.body);
  let head = `${g.method} ${g.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`;
  if (g.authorization !== undefined) head += `Authorization: ${g.authorization}\r\n`;
  if (g.contentType !== undefined) head += `Content-Type: ${g.contentType}\r\n`;
  for (const [name, value] of g.extraHeaders) head += `${name}: ${value}\r\n`;
  if (g.expectContinue) head += 'Expect: 100-continue\r\n';
  if (body === undefined) return [Buffer.from(`${head}\r\n`, 'latin1')];
  if (!g.chunks) return [Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body];
  const cuts = [...new Set(g.chunks.map((f) => Math.floor(f * body.length)))].sort((a, b) => a - b);
  const parts: Buffer[] = [Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n`, 'latin1')];
  let at = 0;
  for (const cut of [...cuts, body.length]) {
    if (cut <= at) continue;
    parts.push(Buffer.from(`${(cut - at).toString(16)}\r\n`), body.subarray(at, cut), Buffer.from('\r\n'));
    at = cut;
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return parts;
}

function getPet(id: number): Promise<RawResponse> {
  return rawExchange(port, Buffer.from(`GET /v1/pets/${id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKeys[1]}\r\nConnection: close\r\n\r\n`));
}

describe('mock over a socket under generated requests', () => {
  it(`keeps every answer allowed and the store equal to the model (${SOCKET_RUNS} requests)`, async () => {
    const model = new PetModel(mock.store.all());
    let created = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary({ apiKeys, wire: true }), async (g) => {
        const head = g.method === 'HEAD';
        const raw = await rawExchange(port, encode(g), { head });
        if (g.expectContinue && raw.interim.length > 0) expect(raw.interim).toEqual([100]);
        const response = { status: raw.status, headers: raw.headers, body: raw.body.toString('utf8') };
        const pet = checkExchange(g, response, { model, apiKeys, headStripped: true });
        if (pet) {
          created++;
          const again = await getPet(pet.id);
          expect(again.status).toBe(200);
          expect(again.body.toString('utf8')).toBe(response.body);
        }
        model.assertSame(mock.store.all());
      }),
      { numRuns: SOCKET_RUNS },
    );
    for (const [id, body] of model.created) expect((await getPet(id)).body.toString('utf8')).toBe(body);
    expect(created).toBeGreaterThan(SOCKET_RUNS / 20);
    const health = await rawExchange(port, Buffer.from('GET /__control/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(health.status).toBe(200);
  }, 60_000);
});
