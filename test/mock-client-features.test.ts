/**
 * The client-developer features over a real socket: the transport faults
 * (which only a socket can show), Prefer and scenarios end to end, the
 * journal and the typed in-process controls of startMockServer.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { Agent, errors, request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mock/node/index.ts';

const KEY = 'socket-test-key-31415';
const AUTH = { authorization: `Bearer ${KEY}` };
let mock: MockServer;
let agent: Agent;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    seed: 1,
    count: 5,
    apiKeys: [KEY],
    timeouts: { headersMs: 500, requestMs: 600 },
  });
  agent = new Agent({ headersTimeout: 5_000, bodyTimeout: 5_000 });
});
beforeEach(() => mock.reset());
afterAll(async () => {
  await agent?.close();
  await mock?.close();
});

/** Sends one raw request and resolves with every byte received until the server closes, and how long that took. */
async function raw(path: string, prefer: string): Promise<{ text: string; ms: number }> {
  const url = new URL(mock.origin);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  const started = performance.now();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nPrefer: ${prefer}\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A reset shows as an error on the socket; the bytes (none) are what is checked.
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('close', resolve));
  return { text: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - started };
}

async function failure(path: string, prefer: string): Promise<Error & { code?: string; cause?: { code?: string } }> {
  try {
    const res = await request(`${mock.url}${path}`, { headers: { ...AUTH, prefer }, dispatcher: agent });
    await res.body.text();
  } catch (error) {
    return error as Error & { code?: string; cause?: { code?: string } };
  }
  throw new Error(`${prefer} gave a whole answer`);
}

describe('transport faults over a socket', () => {
  it('reset: the connection is reset, no answer', async () => {
    const error = await failure('/pets/1', 'fault=reset');
    expect(error.cause?.code ?? error.code).toBe('ECONNRESET');
    expect((await raw('/v1/pets/1', 'fault=reset')).text).toBe('');
  });

  it('close: the connection is closed cleanly with no answer', async () => {
    const error = await failure('/pets/1', 'fault=close');
    expect(error).toBeInstanceOf(errors.SocketError);
    expect((await raw('/v1/pets/1', 'fault=close')).text).toBe('');
  });

  it('truncated: status and headers with the full Content-Length, half the body, then closed', async () => {
    const { text } = await raw('/v1/pets/1', 'fault=truncated');
    const [head, body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const length = Number(/content-length: (\d+)/i.exec(head!)![1]);
    expect(body.length).toBe(Math.floor(length / 2));
    expect(body.length).toBeGreaterThan(0);
    await failure('/pets/1', 'fault=truncated');
  });

  it('malformed: 200, application/json, a body that is not JSON', async () => {
    const res = await request(`${mock.url}/pets`, {
      headers: { ...AUTH, prefer: 'fault=malformed' },
      dispatcher: agent,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    await expect(res.body.json()).rejects.toThrow(SyntaxError);
  });

  it('hang: nothing is sent; the client gives up, or the request timeout closes the connection', async () => {
    const error = await request(`${mock.url}/pets/1`, {
      headers: { ...AUTH, prefer: 'fault=hang' },
      dispatcher: agent,
      signal: AbortSignal.timeout(200),
    }).catch((e: Error) => e);
    expect((error as Error).name).toBe('TimeoutError');
    const { text, ms } = await raw('/v1/pets/1', 'fault=hang');
    expect(text).toBe('');
    expect(ms).toBeGreaterThanOrEqual(500);
  });

  it('keeps serving, and journals each fault with no status', async () => {
    await failure('/pets/2', 'fault=reset');
    const ok = await request(`${mock.url}/pets/2`, { headers: AUTH, dispatcher: agent });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    expect(mock.requests({ path: '/v1/pets/{petId}' }).map((e) => [e.status, e.fault])).toEqual([
      [null, 'reset'],
      [200, undefined],
    ]);
  });
});

describe('scenarios and the journal over a socket, with the typed controls', () => {
  it('a scenario added over HTTP answers the next request; the journal shows it, the key never', async () => {
    const added = await fetch(`${mock.origin}/__control/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/v1/pets', times: 1, status: 503 }),
    });
    expect(added.status).toBe(201);
    const post = () =>
      fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', 'x-copy': KEY },
        body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
      });
    const forced = await post();
    expect([forced.status, forced.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await post()).status).toBe(201);
    expect(mock.requests({ method: 'POST' })).toHaveLength(2);
    expect(mock.requests({ method: 'POST' }).map((e) => e.applied)).toEqual([{ scenario: '1' }, {}]);
    const journal = await (await fetch(`${mock.origin}/__control/requests`)).text();
    expect(journal).not.toContain(KEY);
    expect(journal).toContain('[REDACTED]');
    mock.clearRequests();
    expect(mock.requests()).toEqual([]);
  });

  it('PUT /__control/pets over HTTP replaces the state (bodies of PUT are read)', async () => {
    const put = await fetch(`${mock.origin}/__control/pets`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ id: 9, name: 'Only', categoryId: 1 }]),
    });
    expect(put.status).toBe(200);
    expect(mock.pets.all()).toEqual([{ id: 9, name: 'Only', categoryId: 1 }]);
    mock.replacePets([]);
    expect(mock.pets.size).toBe(0);
  });

  it('a delayed scenario holds the answer over the socket', async () => {
    mock.scenarios.add({ path: '/v1/pets', delayMs: 300, times: 1 });
    const started = performance.now();
    const res = await fetch(`${mock.url}/pets`, { headers: AUTH });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe('an answer the client gave up on', () => {
  /** Waits until the journal holds an entry for `path` (the mock records a delayed answer when it is ready). */
  async function entryFor(path: string) {
    for (let i = 0; i < 100; i++) {
      const [entry] = mock.requests({ path });
      if (entry) return entry;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no journal entry for ${path}`);
  }

  it('is journaled as abandoned and counted apart, never as received', async () => {
    mock.clearCoverage();
    const gaveUp = fetch(`${mock.url}/pets/2`, {
      headers: { ...AUTH, prefer: 'delay=400' },
      signal: AbortSignal.timeout(100),
    });
    await expect(gaveUp).rejects.toThrow();
    const entry = await entryFor('/v1/pets/2');
    expect(entry).toMatchObject({ status: 200, abandoned: true });
    const getPet200 = mock.coverage().responses.find((r) => r.id === 'getPet 200');
    expect(getPet200).toMatchObject({ count: 0, abandoned: 1 });
    expect(mock.coverage().neverReceived).toContain('getPet 200');
  });

  it('a delayed answer the client waited for is received, not abandoned (the control)', async () => {
    mock.clearCoverage();
    const res = await fetch(`${mock.url}/pets/3`, { headers: { ...AUTH, prefer: 'delay=200' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const entry = await entryFor('/v1/pets/3');
    expect(entry.status).toBe(200);
    expect(entry.abandoned).toBeUndefined();
    expect(mock.coverage().responses.find((r) => r.id === 'getPet 200')).toMatchObject({ count: 1, abandoned: 0 });
  });
});
