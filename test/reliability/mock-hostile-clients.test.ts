/**
 * Slow, idle and oversized clients: while they hold sockets the mock keeps
 * serving everyone else promptly, cuts them off within its timeouts, and
 * refuses a body over 1 MiB without reading it.
 */
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { Pool } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../mock/core/handler.ts';
import { compose } from '../../mock/core/layers.ts';
import { createPetStore } from '../../mock/core/store.ts';
import { type MockServer, startMockServer } from '../../mock/node/index.ts';
import { createHttpServer, DEFAULT_TIMEOUTS } from '../../mock/node/server.ts';
import { getValidator } from '../../spec/index.ts';
import { openSocket, parseResponse, readToEnd, sleep } from './support/raw-http.ts';

const KEY = 'hostile-test-key';
const TIMEOUTS = { headersMs: 400, requestMs: 1_200, keepAliveMs: 300 };
/** A prompt answer: generous, since the whole suite shares two cores. */
const PROMPT_MS = 750;

let mock: MockServer;
let port: number;
let pool: Pool;
const sockets: Socket[] = [];

beforeEach(async () => {
  mock = await startMockServer({ port: 0, count: 20, apiKeys: [KEY], timeouts: TIMEOUTS });
  port = Number(new URL(mock.origin).port);
  pool = new Pool(mock.origin, { connections: 4 });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await pool.close();
  await mock.close();
});

async function hostileSocket(): Promise<Socket> {
  const socket = await openSocket(port);
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

/** Sends `count` ordinary requests one after another; returns the slowest answer in ms. */
async function serveOthers(count: number): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const create = i % 2 === 0;
    const { statusCode, body } = await pool.request({
      method: create ? 'POST' : 'GET',
      path: create ? '/v1/pets' : '/v1/pets?limit=5',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: create ? JSON.stringify({ name: `other-${i}`, categoryId: i }) : undefined,
    });
    await body.text();
    expect(statusCode).toBe(create ? 201 : 200);
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

/** Writes `text` one byte every `everyMs` until done or the socket closes; returns the bytes written. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<number> {
  let written = 0;
  for (const byte of Buffer.from(text)) {
    if (socket.destroyed || socket.writableEnded || !socket.writable) break;
    socket.write(Buffer.of(byte));
    written++;
    await sleep(everyMs);
  }
  return written;
}

describe('timeouts', () => {
  it('keeps the documented defaults: headers 10 s, whole request 30 s, idle keep-alive 5 s', () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
  });
});

describe('slow and idle clients', () => {
  it('a client sending its headers a byte at a time does not delay others, and is cut off with a 408 Error', async () => {
    const slow = await hostileSocket();
    const answer = readToEnd(slow, 5_000);
    const started = performance.now();
    const head = `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`;
    const [written, slowest] = await Promise.all([trickle(slow, head, 20), serveOthers(20)]);
    const { data } = await answer;
    const cutAfter = performance.now() - started;
    expect(slowest).toBeLessThan(PROMPT_MS);
    expect(written).toBeLessThan(head.length);
    // Cut before the head was all sent (above), and well before the trickle would have ended (about 5 s): under
    // stress --cpu 4 the 400 ms header timeout fired after 1.9 s, so the margin is wide, not a measure of the timer.
    expect(cutAfter).toBeLessThan(TIMEOUTS.headersMs + 3_000);
    const response = parseResponse(data);
    expect(response.status).toBe(408);
    const error = JSON.parse(response.body.toString());
    expect(getValidator('Error')(error)).toBe(true);
    expect(error.status).toBe(408);
  });

  it('a client sending its body a byte at a time does not delay others, and is cut off within the request timeout', async () => {
    const slow = await hostileSocket();
    const closed = new Promise((resolve) => slow.once('close', resolve));
    const started = performance.now();
    const body = JSON.stringify({ name: 'slowpoke', categoryId: 1, padding: 'x'.repeat(200) });
    slow.write(
      `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const [written, slowest] = await Promise.all([trickle(slow, body, 10), serveOthers(20)]);
    await closed;
    expect(slowest).toBeLessThan(PROMPT_MS);
    expect(written).toBeLessThan(body.length);
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.requestMs + 1_000);
    expect((await mock.pets.all()).some((p) => p.name === 'slowpoke')).toBe(false);
  });

  it('hundreds of idle connections that never read do not stop others being served, and the server lets go of them all', async () => {
    // The adapter alone, to count the server's own sockets.
    const server = createHttpServer({
      fetch: compose([], createHandler({ store: createPetStore([]), apiKeys: [KEY] })),
      timeouts: TIMEOUTS,
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const serverPort = (server.address() as AddressInfo).port;
    const open = () => new Promise<number>((resolve) => server.getConnections((_error, n) => resolve(n)));
    // Counted as accepted, not as open at one moment: on a loaded machine the header timeout (400 ms) may already
    // have let the first go before the last is accepted, which is the behaviour asked for.
    let accepted = 0;
    server.on('connection', () => accepted++);
    try {
      const idle = await Promise.all(Array.from({ length: 300 }, () => openSocket(serverPort)));
      for (const socket of idle) {
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      expect(await serveOthers(20)).toBeLessThan(PROMPT_MS);
      for (let i = 0; i < 40 && accepted < 300; i++) await sleep(25);
      expect(accepted).toBe(300);
      const started = performance.now();
      while ((await open()) > 0 && performance.now() - started < TIMEOUTS.headersMs + 3_000) await sleep(50);
      expect(await open()).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const socket = await hostileSocket();
    const answer = readToEnd(socket, 5_000);
    socket.write(`GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    const started = performance.now();
    const { data } = await answer;
    expect(parseResponse(data).status).toBe(200);
    // node waits about a second past keepAliveTimeout before it closes.
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.keepAliveMs + 2_000);
  });
});

/** Declares `declared` bytes, then writes 64 KiB chunks (honouring back-pressure) until the server closes or `maxBytes` are sent. */
async function pushBody(
  socket: Socket,
  head: string,
  maxBytes: number,
): Promise<{ written: number; response: ReturnType<typeof parseResponse> }> {
  const answer = readToEnd(socket, 10_000);
  let closed = false;
  socket.once('close', () => (closed = true));
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  const chunked = /transfer-encoding: chunked/i.test(head);
  const started = performance.now();
  while (!closed && written < maxBytes && performance.now() - started < 8_000) {
    const ok = socket.write(
      chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk,
    );
    written += chunk.length;
    if (!ok)
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
        setTimeout(resolve, 100);
      });
  }
  const { data } = await answer;
  return { written, response: parseResponse(data) };
}

describe('bodies over the 1 MiB limit', () => {
  // About the body limit, not time: a mock with the default timeouts, so that on a loaded machine a request whose
  // head arrives late is never cut off by the 400 ms header timeout above (a 408 where the limit's 413 is asked).
  beforeEach(async () => {
    await pool.close();
    await mock.close();
    mock = await startMockServer({ port: 0, count: 20, apiKeys: [KEY], timeouts: DEFAULT_TIMEOUTS });
    port = Number(new URL(mock.origin).port);
    pool = new Pool(mock.origin, { connections: 4 });
  });

  const head = (method: string, framing: string) => {
    const start = '{"name":"big","categoryId":1,"pad":"';
    const first = framing.includes('chunked') ? `${start.length.toString(16)}\r\n${start}\r\n` : start;
    return `${method} /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n${first}`;
  };

  it('a declared 100 MiB body is refused with a 413 Error after a few bytes, and the connection is closed', async () => {
    const socket = await hostileSocket();
    const { written, response } = await pushBody(
      socket,
      head('POST', `Content-Length: ${100 * 1024 * 1024}`),
      100 * 1024 * 1024,
    );
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body.toString())).toMatchObject({ status: 413, code: 'payload_too_large' });
    // Kernel buffers take a few MiB; the server read none of them.
    expect(written).toBeLessThan(32 * 1024 * 1024);
    expect(mock.pets.size).toBe(20);
  });

  it('a chunked body that grows past the limit is refused with a 413 Error and not read to its end', async () => {
    const socket = await hostileSocket();
    const { written, response } = await pushBody(socket, head('POST', 'Transfer-Encoding: chunked'), 100 * 1024 * 1024);
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(written).toBeLessThan(32 * 1024 * 1024);
    expect(mock.pets.size).toBe(20);
  });

  it.each(['GET', 'PUT', 'DELETE'])(
    '%s with a declared 100 MiB body is answered without reading the body, and the connection is closed',
    async (method) => {
      const socket = await hostileSocket();
      const { written, response } = await pushBody(
        socket,
        head(method, `Content-Length: ${100 * 1024 * 1024}`),
        100 * 1024 * 1024,
      );
      expect([200, 405, 413]).toContain(response.status);
      expect(written).toBeLessThan(32 * 1024 * 1024);
    },
  );

  it('GET with a chunked body growing past the limit is not drained to its end', async () => {
    const socket = await hostileSocket();
    const { written, response } = await pushBody(socket, head('GET', 'Transfer-Encoding: chunked'), 100 * 1024 * 1024);
    expect([200, 413]).toContain(response.status);
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('after all that, the server still answers at once', async () => {
    expect(await serveOthers(4)).toBeLessThan(PROMPT_MS);
  });
});
