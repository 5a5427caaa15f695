/**
 * One place decides what is secret (conformance/run/settings.ts, secretsOf), and the library hides all of it:
 * the API key, the values of extra headers, the proxy's credentials and credentials in the base URL appear in no
 * error runConformance throws and in no report (every reporter) of a passing run or of a failing one whose
 * server echoes every header it got. The command adds no second pass of its own.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConformanceError, type Report, runConformance } from '../../conformance/index.ts';
import { REPORTERS, render } from '../../conformance/report/index.ts';
import { type MockServer, startMockServer } from '../../mock/node/index.ts';
import { keySpellings } from './support/hostile-targets.ts';

const KEY = 'key-Secret-0001';
const HEADER = 'tenant-Secret-0002';
const PROXY_USER = 'proxyuser';
const PROXY_PASSWORD = 'proxy-Secret-0003';
const URL_PASSWORD = 'url-Secret-0004';
const SECRETS = [KEY, HEADER, PROXY_PASSWORD, URL_PASSWORD];

/** Every secret spelling found in `text`: raw, percent- or JSON-escaped, base64 (Basic credentials included). */
function leaks(text: string): string[] {
  const forms = SECRETS.flatMap((secret) => [
    ...keySpellings(secret),
    Buffer.from(`${PROXY_USER}:${secret}`).toString('base64'),
  ]);
  return forms.filter((form) => text.includes(form));
}

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closing.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A forward proxy (absolute form) that wants `PROXY_USER:PROXY_PASSWORD` and passes every header on, its own too. */
async function startProxy(): Promise<string> {
  const wanted = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
  const server = createServer((req, res) => {
    if (req.headers['proxy-authorization'] !== wanted) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="p"' }).end();
      return;
    }
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return listen(server);
}

/** A server that fails every check and echoes every header and the target it got, in body and headers. */
async function startEcho(): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => {
    const echoed = JSON.stringify({ url: req.url, headers: req.headers });
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-echo': Buffer.from(echoed).toString('base64'),
    });
    res.end(echoed);
  });
  return listen(server);
}

function expectNoSecretIn(report: Report): void {
  for (const name of REPORTERS) expect(leaks(render(name, report, { color: false })), name).toEqual([]);
}

async function thrown(run: Promise<unknown>): Promise<ConformanceError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConformanceError);
  return error as ConformanceError;
}

const headers = { 'X-Tenant': HEADER };

describe('every secret kind, hidden by the library', () => {
  it('a passing run through an authenticating proxy: no secret in any report', async () => {
    const mock: MockServer = await startMockServer({ apiKeys: [KEY], count: 5 });
    closing.push(() => mock.close());
    const proxy = (await startProxy()).replace('http://', `http://${PROXY_USER}:${PROXY_PASSWORD}@`);
    const report = await runConformance({ baseUrl: mock.url, apiKey: KEY, headers, proxy, exchangeLog: true });
    expect(report.ok).toBe(true);
    expectNoSecretIn(report);
  });

  it('a failing run whose server echoes every header: no secret in any report', async () => {
    const echo = await startEcho();
    const proxy = (await startProxy()).replace('http://', `http://${PROXY_USER}:${PROXY_PASSWORD}@`);
    const report = await runConformance({ baseUrl: `${echo}/v1`, apiKey: KEY, headers, proxy, exchangeLog: true });
    expect(report.ok).toBe(false);
    expectNoSecretIn(report);
  });

  it.each([
    ['a bad option', (o: Parameters<typeof runConformance>[0]) => ({ ...o, timeoutMs: 0 })],
    ['credentials in the base URL', (o: Parameters<typeof runConformance>[0]) => o],
    [
      'a base URL that does not parse',
      (o: Parameters<typeof runConformance>[0]) => ({ ...o, baseUrl: `http://qa:${URL_PASSWORD}@[bad/v1` }),
    ],
    [
      'a bad header beside the secrets',
      (o: Parameters<typeof runConformance>[0]) => ({ ...o, headers: { ...headers, 'Bad Name': HEADER } }),
    ],
  ])('refused before any request (%s): the error quotes no secret', async (_name, change) => {
    const options = change({
      baseUrl: `http://qa:${URL_PASSWORD}@127.0.0.1:9/v1`,
      apiKey: KEY,
      headers,
      proxy: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:9`,
    });
    const error = await thrown(runConformance(options));
    expect(error.code).toBe('PETSTORE_CONFORMANCE_BAD_OPTIONS');
    expect(leaks(`${error.message} ${error.problem ?? ''}`)).toEqual([]);
  });

  it('credentials in the base URL are refused with what to do instead, never dropped in silence', async () => {
    const error = await thrown(runConformance({ baseUrl: `http://qa:${URL_PASSWORD}@127.0.0.1:9/v1`, apiKey: KEY }));
    expect(error).toMatchObject({ option: 'baseUrl' });
    expect(error.message).toMatch(/carries credentials .* give what the gateway needs as a header \(--header\)/);
  });

  it('a proxy that is not there, and one that refuses the credentials: the errors quote no secret', async () => {
    const mock = await startMockServer({ apiKeys: [KEY], count: 1 });
    closing.push(() => mock.close());
    const gone = await thrown(
      runConformance({
        baseUrl: mock.url,
        apiKey: KEY,
        headers,
        proxy: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:9`,
      }),
    );
    expect(gone.code).toBe('PETSTORE_CONFORMANCE_PROXY');
    expect(leaks(gone.message)).toEqual([]);
    const refusing = (await startProxy()).replace('http://', `http://${PROXY_USER}:wrong-${PROXY_PASSWORD}@`);
    const refused = await thrown(runConformance({ baseUrl: mock.url, apiKey: KEY, headers, proxy: refusing }));
    expect(refused.code).toBe('PETSTORE_CONFORMANCE_PROXY');
    expect(leaks(refused.message)).toEqual([]);
  });

  it('a key the server rejects, and no API at the base URL: errors and their reports quote no secret', async () => {
    const mock = await startMockServer({ apiKeys: ['another-key'], count: 1 });
    closing.push(() => mock.close());
    const rejected = await thrown(runConformance({ baseUrl: mock.url, apiKey: KEY, headers }));
    expect(rejected.code).toBe('PETSTORE_CONFORMANCE_KEY_REJECTED');
    expect(leaks(rejected.message)).toEqual([]);
    if (rejected.report) expectNoSecretIn(rejected.report);
    const missing = await thrown(runConformance({ baseUrl: `${mock.origin}/v9`, apiKey: KEY, headers }));
    expect(missing.code).toBe('PETSTORE_CONFORMANCE_API_NOT_FOUND');
    expect(leaks(missing.message)).toEqual([]);
  });

  it('nothing listening: the error quotes no secret', async () => {
    const error = await thrown(runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY, headers }));
    expect(error.code).toBe('PETSTORE_CONFORMANCE_UNREACHABLE');
    expect(leaks(error.message)).toEqual([]);
  });

  /** A TCP server that does what `onSocket` says with each connection. */
  async function tcp(onSocket: (socket: import('node:net').Socket) => void): Promise<string> {
    const sockets = new Set<import('node:net').Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      onSocket(socket);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closing.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(resolve);
        }),
    );
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it.each([
    [
      'PETSTORE_CONFORMANCE_NOTHING_SELECTED',
      async () => ({ baseUrl: `${await startEcho()}/v1`, only: ['no.such.case'] }),
    ],
    ['PETSTORE_CONFORMANCE_NOT_UP', async () => ({ baseUrl: 'http://127.0.0.1:9/v1', waitForMs: 300 })],
    ['PETSTORE_CONFORMANCE_NO_ANSWER', async () => ({ baseUrl: `http://${await tcp(() => {})}/v1`, timeoutMs: 300 })],
    ['PETSTORE_CONFORMANCE_TLS', async () => ({ baseUrl: `${(await startEcho()).replace('http:', 'https:')}/v1` })],
    [
      'PETSTORE_CONFORMANCE_PROTOCOL_MISMATCH',
      async () => ({ baseUrl: `http://${await tcp((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'))}/v1` }),
    ],
    [
      'PETSTORE_CONFORMANCE_TRANSPORT_FAILED',
      async () => {
        // Its first answer shows a Petstore; then it goes away: every later request is cut.
        let answered = 0;
        const server = createServer((req, res) => {
          if (answered++ === 0) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
          else req.socket.destroy();
        });
        return { baseUrl: `${await listen(server)}/v1`, concurrency: 1 };
      },
    ],
    [
      'PETSTORE_CONFORMANCE_MAX_TIME',
      async () => {
        const slow = await startMockServer({ apiKeys: [KEY], count: 3, latency: 100 });
        closing.push(() => slow.close());
        return { baseUrl: slow.url, maxTimeMs: 400, concurrency: 1 };
      },
    ],
  ])('%s: the error, and the report it carries, quote no secret', async (code, target) => {
    const error = await thrown(runConformance({ apiKey: KEY, headers, ...(await target()) } as never));
    expect(error.code).toBe(code);
    expect(leaks(error.message)).toEqual([]);
    if (error.report) expectNoSecretIn(error.report);
  });
});
