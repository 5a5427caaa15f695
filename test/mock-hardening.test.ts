/**
 * The smaller hardening points of issue 24 over a real socket: numbers kept
 * exactly or refused, running out of ids, a body that never ends, a
 * compressed body, and one rate-limit bucket per key however it is spelled.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mock/node/index.ts';

const KEY = 'hardening-key-1618';
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ count: 3, apiKeys: [KEY], timeouts: { headersMs: 400, requestMs: 700 } });
});
beforeEach(() => mock.reset());
afterAll(() => mock?.close());

const post = (body: string | Uint8Array, headers: Record<string, string> = JSON_AUTH) =>
  fetch(`${mock.url}/pets`, { method: 'POST', headers, body });

describe('numbers exactly as sent, or refused', () => {
  it.each(['1e-400', '1.0000000000000001', '4503599627370496.5', '9007199254740993', '1e16', '0.5'])(
    'categoryId %s: 400 naming the field, nothing stored',
    async (number) => {
      const res = await post(`{"name":"Rex","categoryId":${number}}`);
      expect(res.status).toBe(400);
      const error = (await res.json()) as { code: string; message: string };
      expect(error.code).toBe('invalid_body');
      expect(error.message).toContain('categoryId');
      expect(mock.pets.size).toBe(3);
    },
  );

  it.each([
    ['3', 3],
    ['3.0', 3],
    ['3e0', 3],
    ['-0', 0],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
  ])('categoryId %s is kept as %d', async (number, kept) => {
    const res = await post(`{"name":"Rex","categoryId":${number},"other":1.5e-400}`);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { categoryId: number }).categoryId).toBe(kept);
  });

  it('PUT /__control/pets refuses an id or categoryId that would be rounded, naming the item', async () => {
    const put = await fetch(`${mock.origin}/__control/pets`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '[{"id":1,"name":"A","categoryId":1},{"id":2,"name":"B","categoryId":1.0000000000000001}]',
    });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { message: string }).message).toContain('pets[1].categoryId must be kept exactly');
    expect(mock.pets.size).toBe(3);
  });
});

it('running out of ids is a 507 ids_exhausted Error, not a 500', async () => {
  mock.replacePets([{ id: Number.MAX_SAFE_INTEGER, name: 'Last', categoryId: 1 }]);
  const res = await post('{"name":"One too many","categoryId":1}');
  expect(res.status).toBe(507);
  const error = (await res.json()) as { code: string; message: string; status: number };
  expect(error).toMatchObject({ code: 'ids_exhausted', status: 507 });
  expect(error.message).toContain('no pet id is left');
  expect(mock.pets.size).toBe(1);
  // An invalid body is still a 400: validation comes first.
  expect((await post('{"name":1}')).status).toBe(400);
});

it('a compressed body is a 415 naming Content-Encoding, on the API and the control endpoints', async () => {
  const gz = gzipSync('{"name":"Rex","categoryId":1}');
  const res = await post(gz, { ...JSON_AUTH, 'content-encoding': 'gzip' });
  expect(res.status).toBe(415);
  expect(((await res.json()) as { message: string }).message).toContain('Content-Encoding');
  const control = await fetch(`${mock.origin}/__control/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync('{"status":503}'),
  });
  expect(control.status).toBe(415);
  expect(mock.scenarios.list()).toEqual([]);
});

it('an empty Content-Encoding, or only identity, is no coding: the body is taken as sent (RFC 9110 §8.4)', async () => {
  for (const coding of ['', 'identity', ' identity , ']) {
    const res = await post('{"name":"Rex","categoryId":1}', { ...JSON_AUTH, 'content-encoding': coding });
    expect([coding, res.status]).toEqual([coding, 201]);
  }
  const control = await fetch(`${mock.origin}/__control/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': '' },
    body: '{"status":503,"times":1}',
  });
  expect(control.status).toBe(201);
  mock.scenarios.clear();
  const mixed = await post('{"name":"Rex","categoryId":1}', { ...JSON_AUTH, 'content-encoding': 'identity, gzip' });
  expect(mixed.status).toBe(415);
});

describe('a body that never ends, or drips, gets the documented 408 within the request timeout', () => {
  const raw = async (head: string, feed: (socket: import('node:net').Socket) => void) => {
    const url = new URL(mock.origin);
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, 'connect');
    const started = performance.now();
    socket.write(head);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.writable && feed(socket), 100);
    await once(socket, 'close');
    clearInterval(timer);
    return { text: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - started };
  };

  it('chunked, endless', async () => {
    const { text, ms } = await raw(
      `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      (s) => s.write('1\r\n \r\n'),
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(text).toContain('"code":"request_timeout"');
    expect(ms).toBeLessThan(5_000);
    expect(mock.pets.size).toBe(3);
  });

  it('a declared length, one byte at a time', async () => {
    const { text } = await raw(
      `PUT /__control/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`,
      (s) => s.write(' '),
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(mock.pets.size).toBe(3);
  });
});

it('rate limit: one bucket per key however Authorization spells it', async () => {
  const limited = await startMockServer({ count: 1, apiKeys: [KEY], rateLimit: 2 });
  try {
    // Two spellings, then a third: within one second the third is over the limit (a second boundary may reset it once).
    const statuses: number[] = [];
    for (const authorization of [`Bearer ${KEY}`, `bearer   ${KEY}`, `BEARER ${KEY}`, `Bearer ${KEY} `])
      statuses.push((await fetch(`${limited.url}/pets`, { headers: { authorization } })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
  } finally {
    await limited.close();
  }
});
