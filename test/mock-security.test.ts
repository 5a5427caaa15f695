/**
 * What a web page can do to the mock on a port: the probes of issue 24, sent
 * as curl sends them (any Host, any Origin, text/plain bodies), against a real
 * socket. Before the fix each of them reached the mock: a page on any site
 * could add a scenario that hangs every API call, read the journal, and with
 * DNS rebinding do all of it as the mock's own origin.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostCheck } from '../mock/node/hosts.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';

const KEY = 'security-test-key-27182';
let mock: MockServer;
let open: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ seed: 1, count: 3, apiKeys: [KEY] });
  open = await startMockServer({
    seed: 1,
    count: 3,
    apiKeys: [KEY],
    allowedHosts: ['app.test', '.dev.example'],
    corsOrigins: ['http://app.test:5173'],
  });
});
afterAll(async () => {
  await mock?.close();
  await open?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (Host included), as curl would send it. */
function probe(
  server: MockServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const url = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { connection: 'close', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const EVIL = 'http://evil.example';
const hang = '{"fault":"hang"}';

describe('the Host allow-list (DNS rebinding)', () => {
  it.each(['evil.example', 'evil.example:4010', 'rebind.attacker.test', 'localhost.evil.example'])(
    'Host: %s gets a 403 Error naming --allowed-hosts, and nothing changes',
    async (host) => {
      const res = await probe(mock, 'POST', '/__control/scenarios', { host, 'content-type': 'application/json' }, hang);
      expect(res.status).toBe(403);
      const error = JSON.parse(res.body);
      expect(error).toMatchObject({ code: 'host_not_allowed', status: 403 });
      expect(error.message).toMatch(/^Blocked request\. This host \(".+"\) is not allowed\./);
      expect(error.message).toContain('--allowed-hosts');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(mock.scenarios.list()).toEqual([]);
      expect((await probe(mock, 'GET', '/v1/pets', { host, authorization: `Bearer ${KEY}` })).status).toBe(403);
    },
  );

  it.each([
    'localhost',
    'LOCALHOST:4010',
    'app.localhost:5173',
    '127.0.0.1',
    '127.0.0.1:9',
    '[::1]:4010',
    '192.168.1.20:4010',
  ])('Host: %s (loopback, an address) is answered', async (host) => {
    expect((await probe(mock, 'GET', '/__control/health', { host })).status).toBe(200);
  });

  it('--allowed-hosts names more (a leading dot takes subdomains), not others', async () => {
    for (const host of ['app.test', 'app.test:80', 'dev.example', 'a.b.dev.example:1'])
      expect((await probe(open, 'GET', '/__control/health', { host })).status).toBe(200);
    for (const host of ['evil.example', 'xapp.test', 'app.test.evil.example', 'evildev.example'])
      expect((await probe(open, 'GET', '/__control/health', { host })).status).toBe(403);
  });

  it('reads Host values as a browser or curl may write them', () => {
    const allowed = hostCheck(['app.test'], 'mock.internal');
    for (const host of [
      'localhost.',
      'LocalHost:1',
      'APP.TEST',
      'app.test.:8080',
      '[::1]',
      '[::ffff:127.0.0.1]:1',
      'mock.internal',
    ])
      expect([host, allowed(host)]).toEqual([host, true]);
    for (const host of [
      '',
      ':4010',
      'evil.example.',
      'localhost:abc',
      'app.test@evil.example',
      'a b',
      '[evil.example]',
    ])
      expect([host, allowed(host)]).toEqual([host, false]);
  });

  it('answers a Host asked again, in any order, as a check that never saw it answers', () => {
    const allowed = hostCheck(['app.test']);
    const hosts = [
      'app.test',
      'evil.example',
      'evil.example',
      'app.test',
      'app.test',
      '',
      'localhost',
      '',
      'evil.example',
    ];
    const fresh = hosts.map((host) => hostCheck(['app.test'])(host));
    expect(fresh).toEqual([true, false, false, true, true, false, true, false, false]);
    for (let pass = 0; pass < 3; pass++) expect(hosts.map(allowed)).toEqual(fresh);
  });

  it('allowedHosts: true answers any Host; a bad entry is refused when the server starts', async () => {
    const any = await startMockServer({ count: 1, allowedHosts: true });
    try {
      expect((await probe(any, 'GET', '/__control/health', { host: 'evil.example' })).status).toBe(200);
    } finally {
      await any.close();
    }
    await expect(startMockServer({ allowedHosts: ['http://app.test/'] })).rejects.toThrow(
      /allowedHosts: .* not a host/,
    );
  });
});

describe('CORS and the control endpoints', () => {
  it("the issue's probe: a text/plain scenario from another origin is refused, and the API does not hang", async () => {
    const res = await probe(mock, 'POST', '/__control/scenarios', { origin: EVIL, 'content-type': 'text/plain' }, hang);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'origin_not_allowed', status: 403 });
    expect(JSON.parse(res.body).message).toContain('--cors-origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(mock.scenarios.list()).toEqual([]);
    expect((await probe(mock, 'GET', '/v1/pets', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it('control endpoints take application/json only: text/plain (no preflight needed) is a 415, even with no Origin', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await probe(mock, 'POST', '/__control/scenarios', { 'content-type': type }, hang);
      expect([res.status, JSON.parse(res.body).code]).toEqual([415, 'unsupported_media_type']);
      const put = await probe(mock, 'PUT', '/__control/pets', { 'content-type': type }, '[]');
      expect(put.status).toBe(415);
    }
    expect(mock.scenarios.list()).toEqual([]);
    expect(mock.pets.size).toBe(3);
    const json = await probe(mock, 'POST', '/__control/scenarios', { 'content-type': 'application/json' }, hang);
    expect(json.status).toBe(201);
    mock.reset();
  });

  it.each([EVIL, 'http://localhost:5173', 'null'])(
    'from %s: no journal, no reset, no preflight for PUT /__control/pets',
    async (origin) => {
      await probe(mock, 'GET', '/v1/pets', { authorization: `Bearer ${KEY}` });
      const journal = await probe(mock, 'GET', '/__control/requests', { origin });
      expect([journal.status, JSON.parse(journal.body).code]).toEqual([403, 'origin_not_allowed']);
      expect(journal.body).not.toContain('/v1/pets');
      const preflight = await probe(mock, 'OPTIONS', '/__control/pets', {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      });
      expect(preflight.status).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
      const reset = await probe(mock, 'POST', '/__control/reset', { origin });
      expect(reset.status).toBe(403);
      expect(mock.requests()).toHaveLength(1);
      mock.reset();
    },
  );

  it("the mock's own origin (a page it served, a proxy in front) may use the control endpoints", async () => {
    const host = new URL(mock.origin).host;
    const res = await probe(
      mock,
      'POST',
      '/__control/scenarios',
      { host, origin: mock.origin, 'content-type': 'application/json' },
      '{"status":503,"times":1}',
    );
    expect(res.status).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe(mock.origin);
    mock.reset();
  });

  it('the API: loopback origins on any port get CORS (Vary: Origin), others none; no * by default', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'https://app.localhost',
      'http://[::1]:8080',
    ]) {
      const res = await probe(mock, 'GET', '/v1/pets/1', { origin, authorization: `Bearer ${KEY}` });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers.vary).toBe('Origin');
      expect(res.headers['access-control-expose-headers']).toContain('Deprecation');
      const preflight = await probe(mock, 'OPTIONS', '/v1/pets', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, Prefer, Petstore-Session',
      );
    }
    for (const origin of [EVIL, 'http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'null']) {
      const res = await probe(mock, 'GET', '/v1/pets/1', { origin, authorization: `Bearer ${KEY}` });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await probe(mock, 'OPTIONS', '/v1/pets', { origin, 'access-control-request-method': 'POST' });
      expect([preflight.status, JSON.parse(preflight.body).code]).toEqual([403, 'origin_not_allowed']);
    }
    const plain = await probe(mock, 'GET', '/v1/pets/1', { authorization: `Bearer ${KEY}` });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('--cors-origin grants a named origin the API and the control endpoints; * restores the old behaviour', async () => {
    const app = 'http://app.test:5173';
    const journal = await probe(open, 'GET', '/__control/requests', { origin: app });
    expect([journal.status, journal.headers['access-control-allow-origin']]).toEqual([200, app]);
    const preflight = await probe(open, 'OPTIONS', '/__control/pets', {
      origin: app,
      'access-control-request-method': 'PUT',
    });
    expect([preflight.status, preflight.headers['access-control-allow-methods']]).toEqual([204, 'GET, HEAD, PUT']);
    expect((await probe(open, 'GET', '/__control/requests', { origin: 'http://app.test:5174' })).status).toBe(403);
    const star = await startMockServer({ count: 1, corsOrigins: ['*'] });
    try {
      const res = await probe(star, 'GET', '/__control/requests', { origin: EVIL });
      expect([res.status, res.headers['access-control-allow-origin']]).toEqual([200, '*']);
    } finally {
      await star.close();
    }
    await expect(startMockServer({ corsOrigins: ['app.test:5173'] })).rejects.toThrow(/not an origin/);
  });
});
