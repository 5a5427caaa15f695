import { once } from 'node:events';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getValidator } from '../../spec/index.ts';
import { type MockServer, type RequestLogEntry, startMockServer } from './index.ts';
import { BODY_LIMIT } from './server.ts';

let mock: MockServer;
let logged: RequestLogEntry[];
const KEY = 'socket-test-key';

beforeEach(async () => {
  logged = [];
  mock = await startMockServer({ port: 0, count: 10, apiKeys: [KEY], log: (entry) => logged.push(entry) });
});
afterEach(() => mock.close());

interface Sent {
  response: IncomingMessage;
  body: string;
}

function send(
  path: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer; agent?: Agent } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${mock.origin}${path}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: options.agent },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ response, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the mock over a real socket', () => {
  it('serves the seeded pets at /v1 with the key, and logs one line per request without the key', async () => {
    const { response, body } = await send('/v1/pets?limit=5', { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(getValidator('Pets')(JSON.parse(body))).toBe(true);
    await send(`/v1/pets?token=${KEY}`, { headers: { authorization: 'Bearer wrong' } });
    expect(logged.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'GET /v1/pets?limit=5 200',
      'GET /v1/pets?token=[REDACTED] 401',
    ]);
    expect(JSON.stringify(logged)).not.toContain(KEY);
  });

  it('answers a browser preflight and exposes headers to the page', async () => {
    const preflight = await send('/v1/pets', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.response.statusCode).toBe(204);
    // A loopback origin: granted by name (never `*` on a port), with Vary: Origin.
    expect(preflight.response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.response.headers.vary).toBe('Origin');
    expect(preflight.response.headers['access-control-allow-headers']).toContain('Authorization');
    const actual = await send('/v1/pets/1', {
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${KEY}` },
    });
    expect(actual.response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(actual.response.headers['access-control-expose-headers']).toContain('Sunset');
  });

  it('keeps connections alive between requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await send('/v1/pets', { headers: { authorization: `Bearer ${KEY}` }, agent });
    const second = await send('/v1/pets/1', { headers: { authorization: `Bearer ${KEY}` }, agent });
    expect(first.response.headers.connection).toBe('keep-alive');
    expect(first.response.socket).toBe(second.response.socket);
    agent.destroy();
  });

  it('refuses a declared body over 1 MiB with 413 before reading it, and closes the connection', async () => {
    const socket = connect(Number(new URL(mock.origin).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${100 * BODY_LIMIT}\r\n\r\n{"name":`,
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/connection: close/i);
    expect(received).toContain('"code":"payload_too_large"');
    expect(mock.pets.size).toBe(10);
  });

  it('refuses a chunked body once it grows past 1 MiB', async () => {
    const big = Buffer.alloc(BODY_LIMIT + 1, 0x20);
    const { response, body } = await send('/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    }).catch((error: Error) => ({ response: undefined, body: error.message }) as never);
    expect(response?.statusCode).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ status: 413 });
  });

  it('accepts a body of exactly 1 MiB (padded JSON) as a normal create', async () => {
    const json = '{"name":"Big","categoryId":1}';
    const body = json + ' '.repeat(BODY_LIMIT - json.length);
    const { response } = await send('/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.statusCode).toBe(201);
  });

  it('HEAD answers like GET without a body', async () => {
    const { response, body } = await send('/v1/pets', { method: 'HEAD', headers: { authorization: `Bearer ${KEY}` } });
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(2);
    expect(body).toBe('');
  });
});

describe('requests node:http cannot parse', () => {
  it.each([
    ['a broken request line', 'GARBAGE\r\n\r\n', 400, 'malformed_request'],
    [
      'headers over the limit',
      `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ])('%s gets an Error body, then the connection closes', async (_title, raw, status, code) => {
    const socket = connect(Number(new URL(mock.origin).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(raw);
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    await once(socket, 'close');
    expect(received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status, code });
    expect(getValidator('Error')(body)).toBe(true);
  });

  it('accepts the absolute form of a request target', async () => {
    const socket = connect(Number(new URL(mock.origin).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `GET ${mock.origin}/v1/pets/1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('Expect: 100-continue', () => {
  async function exchange(contentLength: number, body?: string): Promise<string> {
    const socket = connect(Number(new URL(mock.origin).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
      if (body !== undefined && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !received.includes('201'))
        socket.write(body);
    });
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${contentLength}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await once(socket, 'close');
    return received;
  }

  it('answers 413 at once, without inviting a body over the limit', async () => {
    const received = await exchange(100 * BODY_LIMIT);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).not.toContain('100 Continue');
  });

  it('invites a body that fits, then creates the pet', async () => {
    const body = '{"name":"Cont","categoryId":2}';
    const received = await exchange(body.length, body);
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('binding', () => {
  it('warns when bound to anything but loopback, and not otherwise', async () => {
    const warnings: string[] = [];
    const open = await startMockServer({
      host: '0.0.0.0',
      count: 1,
      controlKey: 'a-control-key-of-some-length',
      onWarning: (m) => warnings.push(m),
    });
    await open.close();
    expect(warnings).toEqual([
      'bound to 0.0.0.0, not loopback: anyone who can reach this address can call the API (the controls need the control key)',
    ]);
    const local = await startMockServer({ count: 1, onWarning: (m) => warnings.push(m) });
    await local.close();
    expect(warnings).toHaveLength(1);
  });
});
