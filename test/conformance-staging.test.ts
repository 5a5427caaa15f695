/**
 * Staging as QA meets it, against real sockets on 127.0.0.1: the suite through
 * a forward proxy (absolute form for http:, CONNECT for https:) to a host name
 * only the proxy resolves, a proxy's own error page, NO_PROXY,
 * a proxy that wants credentials, a gateway header on every request and in no
 * report, a private CA, and a server that asks for a client certificate. The
 * CLI runs from the sources; the certificates are test/fixtures/tls/.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakePetstore, startFakePetstore } from '../conformance/test/fake-petstore.ts';
import { type Ran, ROOT, runProcess, tsxEntry } from './support/processes.ts';

const KEY = 'staging-key-5e1d';
const HOST = 'petstore.staging.test';
const TLS_DIR = join(ROOT, 'test', 'fixtures', 'tls');
const pem = (name: string) => readFileSync(join(TLS_DIR, name), 'utf8');

/**
 * A forward proxy that resolves HOST to 127.0.0.1: it forwards requests in absolute form (http: targets) and opens
 * CONNECT tunnels (https: ones), records both, may ask for credentials, and may answer some requests itself with an
 * error page as Squid makes them (`refuse`).
 */
interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT it was asked for. */
  connects: string[];
  /** `METHOD absolute-URL` of every request it was asked to forward. */
  forwarded: string[];
  close(): Promise<void>;
}

interface TestProxyOptions {
  credentials?: string;
  /** Requests the proxy answers itself, with Squid's 403 page, instead of forwarding them. */
  refuse?: (req: IncomingMessage) => boolean;
  /** Requests whose connection the proxy closes, with no answer, instead of forwarding them. */
  close?: (req: IncomingMessage) => boolean;
}

async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const connects: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials && `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const server: Server = createServer((req, res) => {
    if (!/^http:\/\//.test(req.url!)) return void res.writeHead(400).end();
    if (expected && req.headers['proxy-authorization'] !== expected)
      return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="qa"' }).end();
    forwarded.push(`${req.method} ${req.url}`);
    if (options.refuse?.(req)) {
      const page = { 'content-type': 'text/html', 'x-squid-error': 'ERR_ACCESS_DENIED 0', via: '1.1 qa (squid/5.7)' };
      return void res.writeHead(403, page).end('<html><title>ERROR: Access Denied</title></html>');
    }
    if (options.close?.(req)) return void req.socket.destroy();
    const target = new URL(req.url!);
    const { 'proxy-authorization': _a, 'proxy-connection': _c, ...headers } = req.headers;
    const upstream = request(
      {
        host: target.hostname === HOST ? '127.0.0.1' : target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="qa"\r\n\r\n');
      return;
    }
    connects.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host === HOST ? '127.0.0.1' : host!);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.pipe(upstream).pipe(client);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const auth = options.credentials ? `${options.credentials}@` : '';
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    connects,
    forwarded,
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

let dir = '';
let fake: FakePetstore | undefined;
let proxy: TestProxy | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'suite-staging-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await fake?.close();
  await proxy?.close();
  fake = undefined;
  proxy = undefined;
});

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, CI: _ci, ...rest } = process.env;
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'])
    delete rest[name];
  return runProcess([...tsxEntry('conformance/cli.ts'), ...args], {
    env: { ...rest, NO_COLOR: '1', PETSTORE_API_KEY: KEY, ...env },
  });
}

function lastLine(run: Ran): string {
  return run.stdout.trimEnd().split('\n').at(-1) ?? '';
}

/** Exit 2 with one line on stderr matching `line`, nothing on stdout. */
function expectCouldNotRun(run: Ran, line: RegExp): void {
  expect(run.code, run.stderr + run.stdout).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr.trimEnd()).toMatch(line);
}

/** The fake's base URL with HOST, which only the test proxy resolves. */
function viaName(f: FakePetstore): string {
  return f.url.replace('127.0.0.1', HOST);
}

describe('through a proxy', () => {
  it('reaches a host only the proxy resolves, from HTTP_PROXY: exit 0, every request forwarded in absolute form, the report says so', async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    proxy = await startProxy();
    const run = await cli(['--base-url', viaName(fake)], { HTTP_PROXY: proxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe(`Through the proxy ${proxy.url} (from HTTP_PROXY)`);
    // As curl and browsers send an http: URL: no tunnel, which proxies often allow only to port 443.
    expect(proxy.connects).toEqual([]);
    expect(proxy.forwarded).toHaveLength(fake.requests.length);
    const origin = new URL(viaName(fake)).origin;
    expect(proxy.forwarded.every((line) => line.split(' ')[1]!.startsWith(`${origin}/`))).toBe(true);
  });

  it('an https: target through the proxy: a CONNECT tunnel, exit 0', async () => {
    fake = await startFakePetstore({ apiKey: KEY, tls: { key: pem('server.key'), cert: pem('server.pem') } });
    proxy = await startProxy();
    const run = await cli(['--base-url', viaName(fake), '--ca', join(TLS_DIR, 'ca.pem')], { HTTPS_PROXY: proxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(new Set(proxy.connects)).toEqual(new Set([new URL(viaName(fake)).host]));
    expect(proxy.forwarded).toEqual([]);
  });

  it("the proxy's own error page is the proxy's: the cases that met it are not judged, exit 2 saying so, and no credentials show", async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    proxy = await startProxy({ credentials: 'qa:pr0xy-Secret', refuse: (req) => req.method === 'POST' });
    const json = join(dir, 'refused.json');
    const reporters = ['--reporter', 'pretty', '--reporter', `json=${json}`];
    const run = await cli(['--base-url', viaName(fake), '--generate', '5', ...reporters], { HTTP_PROXY: proxy.url });
    const shown = proxy.url.replace('qa:pr0xy-Secret@', '[REDACTED]@');
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const answered = `the proxy ${shown} answered 403 itself (X-Squid-Error: ERR_ACCESS_DENIED 0), not the server`;
    // A POST it refuses unread may also find its connection closed by it (node's server, as Squid may): the proxy's too.
    const closed = `${literal(`the proxy ${shown} closed the connection without an answer`)} \\((UND_ERR_SOCKET|ECONNRESET|EPIPE)\\), not the server`;
    const proxied = new RegExp(`^not judged: (${literal(answered)}|${closed})$`);
    expect(run.code, `${run.stdout.slice(-4000)}\n${run.stderr}`).toBe(2);
    // Not applicable: listPets.absoluteForm, as through any proxy.
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, \d+ skipped, 1 not applicable$/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      cases: { id: string; level: string; outcome: string; reason?: string }[];
    };
    // Every create, and every case that needed one (a fetch of a created animal, the auth cases on createPet).
    const creates = report.cases.filter((c) => c.id.startsWith('createPet.'));
    expect(creates.length).toBeGreaterThan(10);
    for (const c of creates)
      expect(c, c.id).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(proxied) });
    expect(creates.some((c) => c.reason === `not judged: ${answered}`)).toBe(true);
    const notJudged = report.cases.filter((c) => c.level === 'required' && proxied.test(c.reason ?? ''));
    expect(notJudged.map((c) => c.id)).toEqual(expect.arrayContaining(['getPet.existing', 'auth.createPet.missing']));
    // Generated sequences stop at the proxy's answer: the checks only they judge say so.
    const generated = report.cases.filter((c) => c.id.startsWith('generated.createPet.'));
    expect(generated.length).toBeGreaterThan(0);
    for (const c of generated)
      expect(c.reason, c.id).toMatch(/^not judged: the proxy .* \(in \d+ generated sequences?\)$/);
    const reasons = report.cases.filter(
      (c) => c.level === 'required' && c.reason?.startsWith('not judged: the proxy '),
    );
    expect(run.stderr).toBe(
      `petstore-conformance: ${reasons.length} required case(s) could not be judged, the proxy answering for the server: ${reasons[0]!.reason!.slice('not judged: '.length)}; have the proxy let the requests through, or name the host in NO_PROXY\n`,
    );
    expect(fake.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
    const outputs = [run.stdout, run.stderr, readFileSync(json, 'utf8')].join('\n');
    for (const secret of ['pr0xy-Secret', Buffer.from('qa:pr0xy-Secret').toString('base64')])
      expect(outputs).not.toContain(secret);
  });

  it("a connection the proxy closes with no answer is the proxy's: those cases are not judged, exit 2 (the same close from the server fails: conformance-forced-failures)", async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    proxy = await startProxy({ close: (req) => req.method === 'POST' });
    const json = join(dir, 'closed.json');
    const run = await cli(['--base-url', viaName(fake), '--reporter', `json=${json}`], { HTTP_PROXY: proxy.url });
    expect(run.code, `${run.stdout.slice(-4000)}\n${run.stderr}`).toBe(2);
    const closed = new RegExp(
      `^not judged: the proxy ${proxy.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} closed the connection without an answer \\((UND_ERR_SOCKET|ECONNRESET|EPIPE)\\), not the server$`,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      cases: { id: string; outcome: string; reason?: string }[];
    };
    const creates = report.cases.filter((c) => c.id.startsWith('createPet.'));
    expect(creates.length).toBeGreaterThan(10);
    for (const c of creates)
      expect(c, c.id).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(closed) });
    expect(report.cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    expect(run.stderr).toMatch(
      /required case\(s\) could not be judged, the proxy answering for the server: the proxy .* closed the connection/,
    );
    expect(fake.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('--proxy overrides the variables', async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    proxy = await startProxy();
    const run = await cli(['--base-url', viaName(fake), '--proxy', proxy.url], { HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Through the proxy ${proxy.url} (from proxy)`);
    expect(proxy.forwarded).toHaveLength(fake.requests.length);
  });

  it('NO_PROXY sends the host direct: the proxy sees nothing, and the name then does not resolve', async () => {
    proxy = await startProxy();
    const run = await cli(['--base-url', `http://${HOST}:9/v1`], { HTTP_PROXY: proxy.url, NO_PROXY: 'staging.test' });
    expectCouldNotRun(
      run,
      new RegExp(`^petstore-conformance: cannot reach http://${HOST}:9/v1: (ENOTFOUND|EAI_AGAIN)`),
    );
    expect(proxy.connects).toEqual([]);
    expect(proxy.forwarded).toEqual([]);
  });

  it('a proxy that wants credentials: exit 2 naming it; with them in the URL, exit 0, and they appear nowhere', async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    proxy = await startProxy({ credentials: 'qa:pr0xy-Secret' });
    const bare = proxy.url.replace('qa:pr0xy-Secret@', '');
    const refused = await cli(['--base-url', viaName(fake)], { HTTP_PROXY: bare });
    expectCouldNotRun(
      refused,
      new RegExp(
        `^petstore-conformance: the proxy ${bare.replace(/[.]/g, '\\.')} \\(from HTTP_PROXY\\) asks for credentials \\(407`,
      ),
    );
    const json = join(dir, 'proxied.json');
    const run = await cli(['--base-url', viaName(fake), '--reporter', 'pretty', '--reporter', `json=${json}`], {
      HTTP_PROXY: proxy.url,
    });
    expect(run.code, run.stderr).toBe(0);
    const outputs = [run.stdout, run.stderr, readFileSync(json, 'utf8')].join('\n');
    expect(outputs).toContain(`Through the proxy http://[REDACTED]@${bare.slice('http://'.length)}`);
    for (const secret of ['pr0xy-Secret', Buffer.from('qa:pr0xy-Secret').toString('base64')])
      expect(outputs).not.toContain(secret);
  });

  it('a proxy that is not there: exit 2 naming the proxy, not the server', async () => {
    const run = await cli(['--base-url', `http://${HOST}:9/v1`, '--proxy', 'http://127.0.0.1:9']);
    expectCouldNotRun(
      run,
      /^petstore-conformance: cannot reach the proxy http:\/\/127\.0\.0\.1:9 \(from proxy\): ECONNREFUSED/,
    );
  });
});

describe('--header', () => {
  it('is sent on every request, generated ones too, and its value is in no report', async () => {
    fake = await startFakePetstore({ apiKey: KEY });
    const value = 'tenant-t0ken/9+x';
    const files = ['json', 'junit', 'html', 'har'].map((name) => join(dir, `header.${name}`));
    const reporters = ['json', 'junit', 'html', 'har'].flatMap((name, i) => ['--reporter', `${name}=${files[i]}`]);
    const run = await cli([
      '--base-url',
      fake.url,
      '--header',
      `X-Gateway-Token: ${value}`,
      '--header',
      'X-Tenant: qa',
      '--generate',
      '3',
      '--reporter',
      'pretty',
      ...reporters,
    ]);
    expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr}`).toBe(0);
    expect(fake.headers.length).toBeGreaterThan(60);
    expect(fake.headers.every((h) => h['x-gateway-token'] === value && h['x-tenant'] === 'qa')).toBe(true);
    const outputs = [run.stdout, run.stderr, ...files.map((f) => readFileSync(f, 'utf8'))].join('\n');
    for (const form of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])
      expect(outputs).not.toContain(form);
    expect(readFileSync(files[3]!, 'utf8')).toContain('"name": "x-gateway-token"');
  });

  it.each([
    ['Authorization: Bearer x', /the Authorization header carries the API key/],
    ['Host: evil.test', /the Host header is set by the suite itself/],
    ['no colon here', /--header must be 'Name: value'/],
  ])('refuses %s with one line', async (header, line) => {
    const run = await cli(['--base-url', 'http://127.0.0.1:9/v1', '--header', header]);
    expectCouldNotRun(run, line);
  });
});

describe('TLS of a real staging', () => {
  const serverTls = { key: pem('server.key'), cert: pem('server.pem') };
  const caFile = join(TLS_DIR, 'ca.pem');

  it('a private CA: without --ca exit 2 saying so; with --ca exit 0', async () => {
    fake = await startFakePetstore({ apiKey: KEY, tls: serverTls });
    const untrusted = await cli(['--base-url', fake.url]);
    expectCouldNotRun(
      untrusted,
      /the TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(\w+\): give its CA with --ca FILE/,
    );
    const trusted = await cli(['--base-url', fake.url, '--ca', caFile]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(lastLine(trusted)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/);
  });

  it('a server asking for a client certificate: without one exit 2 saying so; with --cert and --cert-key exit 0', async () => {
    fake = await startFakePetstore({ apiKey: KEY, tls: { ...serverTls, ca: pem('ca.pem'), requestCert: true } });
    const without = await cli(['--base-url', fake.url, '--ca', caFile]);
    expectCouldNotRun(
      without,
      /^petstore-conformance: 127\.0\.0\.1:\d+ asks for a client certificate \(\w+\): give it with --cert FILE --cert-key FILE/,
    );
    const run = await cli([
      '--base-url',
      fake.url,
      '--ca',
      caFile,
      '--cert',
      join(TLS_DIR, 'client.pem'),
      '--cert-key',
      join(TLS_DIR, 'client.key'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, 0 skipped$/);
    // A certificate the server will not take (a server certificate, not for client auth): still a clear exit 2.
    const wrong = await cli(
      ['--base-url', fake.url, '--ca', caFile, '--cert', join(TLS_DIR, 'server.pem')].concat([
        '--cert-key',
        join(TLS_DIR, 'server.key'),
      ]),
    );
    expectCouldNotRun(wrong, /does not accept the client certificate given with --cert \([^)]+\): check that its CA/);
  });

  it('a CA file that is not there, or a certificate without its key: exit 2 with one line', async () => {
    expectCouldNotRun(
      await cli(['--base-url', 'https://127.0.0.1:9/v1', '--ca', join(dir, 'missing.pem')]),
      /cannot read --ca .*missing\.pem: ENOENT/,
    );
    expectCouldNotRun(
      await cli(['--base-url', 'https://127.0.0.1:9/v1', '--cert', join(TLS_DIR, 'client.pem')]),
      /--cert and --cert-key go together/,
    );
  });
});
