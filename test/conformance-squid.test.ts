/**
 * The suite through Debian's Squid, as companies run it: the package's stock
 * /etc/squid/squid.conf, with only its port and its paths (pid file, logs,
 * netdb, core dumps) moved to a temporary directory and the https: target's
 * port added to SSL_ports. Stock Squid allows CONNECT only to SSL_ports (443)
 * and denies ports outside Safe_ports: an http: target on a high port passes
 * only in absolute form. Squid's own pages (its 403, its 502) are the proxy's,
 * never the server's. Squid is Debian's package (`apt-get install squid`,
 * which .ci/run does): without it these tests fail, as the browser tests do
 * without Chromium.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakePetstore, startFakePetstore } from '../conformance/test/fake-petstore.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { type Ran, ROOT, runProcess, type Spawned, spawnProcess, tsxEntry } from './support/processes.ts';

const SQUID = '/usr/sbin/squid';
const STOCK = '/etc/squid/squid.conf';
const KEY = 'squid-key-7c2a';
const TLS_DIR = join(ROOT, 'test', 'fixtures', 'tls');
const pem = (name: string) => readFileSync(join(TLS_DIR, name), 'utf8');
/** Below 1025 and in none of stock Squid's Safe_ports (80, 21, 443, 70, 210, 280, 488, 591, 777, 1025-65535). */
const UNSAFE_PORT = 1024;

let dir = '';
let squid: Spawned | undefined;
let proxyUrl = '';
let https: FakePetstore | undefined;
let fake: FakePetstore | undefined;

/** A port nothing listens on now, for Squid (which cannot be told port 0). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The stock configuration with only the port, the paths and SSL_ports changed; throws if it is not the stock one. */
function squidConfig(port: number, sslPort: number): string {
  let config = readFileSync(STOCK, 'utf8');
  const edits: [RegExp, string][] = [
    [/^http_port 3128$/m, `http_port 127.0.0.1:${port}`],
    [/^coredump_dir .*$/m, `coredump_dir ${dir}`],
    [/^acl SSL_ports port 443$/m, `acl SSL_ports port 443\nacl SSL_ports port ${sslPort}`],
  ];
  for (const [line, replacement] of edits) {
    if (!line.test(config)) throw new Error(`${STOCK} has no line ${line}: is it Debian's stock configuration?`);
    config = config.replace(line, replacement);
  }
  const paths = [
    `pid_filename ${join(dir, 'squid.pid')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    `access_log stdio:${join(dir, 'access.log')}`,
    `netdb_filename stdio:${join(dir, 'netdb.state')}`,
  ];
  return `${config}\n${paths.join('\n')}\n`;
}

/** Waits until Squid says it accepts connections; throws with its log if it exits or takes longer than 20 s. */
async function squidReady(spawned: Spawned): Promise<void> {
  const log = join(dir, 'cache.log');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    if (/Accepting HTTP Socket connections/.test(text)) return;
    if (spawned.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`squid did not start:\n${text}\n${spawned.stdout()}\n${spawned.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  if (!existsSync(SQUID))
    throw new Error(`${SQUID} is missing: install Debian's squid (apt-get install squid), as .ci/run does`);
  dir = mkdtempSync(join(tmpdir(), 'suite-squid-'));
  // Started as root, Squid drops to the proxy user, which must write its logs here.
  chmodSync(dir, 0o1777);
  https = await startFakePetstore({ apiKey: KEY, tls: { key: pem('server.key'), cert: pem('server.pem') } });
  const port = await freePort();
  const config = join(dir, 'squid.conf');
  writeFileSync(config, squidConfig(port, Number(new URL(https.url).port)));
  // -N: in the foreground, so that it is this test's to stop; its own group, so that its pinger stops with it.
  squid = spawnProcess([SQUID, '-N', '-f', config], { detached: true });
  await squidReady(squid);
  proxyUrl = `http://127.0.0.1:${port}`;
}, 30_000);

afterAll(async () => {
  // SIGTERM would wait shutdown_lifetime (30 s) for clients.
  await squid?.stop('SIGKILL');
  await https?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function cli(args: string[]): Promise<Ran> {
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, CI: _ci, ...rest } = process.env;
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'])
    delete rest[name];
  return runProcess([...tsxEntry('conformance/cli.ts'), ...args], {
    env: { ...rest, NO_COLOR: '1', PETSTORE_API_KEY: KEY },
  });
}

/** Squid's access log lines that name `what` (an absolute URL's origin, or `CONNECT host:port`). */
function accessLog(what: string): string[] {
  return readFileSync(join(dir, 'access.log'), 'utf8')
    .split('\n')
    .filter((line) => line.includes(what));
}

function lastLine(run: Ran): string {
  return run.stdout.trimEnd().split('\n').at(-1) ?? '';
}

/** Exit 2 with `line` alone on stderr, nothing on stdout. */
function expectCouldNotRun(run: Ran, line: string): void {
  expect(run.code, run.stderr + run.stdout).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(`petstore-conformance: ${line}\n`);
}

describe("through Debian's Squid, stock configuration", () => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('an http: target on a high port: every request forwarded in absolute form (no CONNECT), exit 0', async () => {
    let served = 0;
    mock = await startMockServer({ port: 0, apiKeys: [KEY], log: () => served++ });
    const run = await cli(['--base-url', mock.url, '--proxy', proxyUrl, '--generate', '5']);
    expect(run.code, `${run.stdout.slice(-2000)}\n${run.stderr}`).toBe(0);
    // Not applicable: listPets.absoluteForm (no target goes out in absolute form through a proxy), and a generated
    // check that five sequences may not reach (so without the proxy too).
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, 0 skipped, [123] not applicable$/);
    expect(run.stdout).toMatch(/listPets\.absoluteForm .*not sent: through the proxy/);
    expect(run.stdout.split('\n')[1]).toBe(`Through the proxy ${proxyUrl} (from proxy)`);
    const { host, origin } = new URL(mock.url);
    expect(served).toBeGreaterThan(60);
    expect(accessLog(`${origin}/`)).toHaveLength(served);
    expect(accessLog(`CONNECT ${host}`)).toEqual([]);
  });

  it('an https: target (its port in SSL_ports): a CONNECT tunnel, exit 0', async () => {
    const run = await cli(['--base-url', https!.url, '--proxy', proxyUrl, '--ca', join(TLS_DIR, 'ca.pem')]);
    expect(run.code, `${run.stdout.slice(-2000)}\n${run.stderr}`).toBe(0);
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, 0 skipped, 1 not applicable$/);
    const connects = accessLog(`CONNECT ${new URL(https!.url).host}`);
    expect(connects.length).toBeGreaterThan(0);
    expect(connects.every((line) => line.includes('TCP_TUNNEL/200'))).toBe(true);
  });

  it("a port Squid denies: its 403 page named as the proxy's, exit 2, the proxy's credentials hidden", async () => {
    const withCredentials = proxyUrl.replace('http://', 'http://qa:squ1d-Secret@');
    const shown = proxyUrl.replace('http://', 'http://[REDACTED]@');
    const base = `http://127.0.0.1:${UNSAFE_PORT}/v1`;
    const run = await cli(['--base-url', base, '--proxy', withCredentials]);
    expectCouldNotRun(
      run,
      `the proxy ${shown} (from proxy) answered the first request (GET ${base}/pets?limit=1) itself, with 403 (X-Squid-Error: ERR_ACCESS_DENIED 0): it did not pass it on to 127.0.0.1:${UNSAFE_PORT}; check the base URL, or NO_PROXY for hosts the proxy cannot reach`,
    );
    expect(run.stderr).not.toContain('squ1d-Secret');
  });

  it('an https: target on a port outside SSL_ports: the CONNECT Squid refused, exit 2 naming the proxy', async () => {
    mock = await startMockServer({ port: 0, apiKeys: [KEY] });
    const base = mock.url.replace('http:', 'https:');
    const run = await cli(['--base-url', base, '--proxy', proxyUrl]);
    expectCouldNotRun(
      run,
      `the proxy ${proxyUrl} (from proxy) did not open a connection to ${new URL(base).host} (it answered 403): check the base URL, or NO_PROXY for hosts the proxy cannot reach`,
    );
  });

  it("a server that drops the connection on create: Squid's 502 is not judged as the server's, exit 2 saying so", async () => {
    fake = await startFakePetstore({ apiKey: KEY, violations: ['resetOnCreate'] });
    const run = await cli(['--base-url', fake.url, '--proxy', proxyUrl]);
    expect(run.code, run.stderr).toBe(2);
    expect(lastLine(run)).toMatch(/^\d+ passed, 0 failed, \d+ skipped, 1 not applicable$/);
    const answered = `not judged: the proxy ${proxyUrl} answered 502 itself (X-Squid-Error: ERR_ZERO_SIZE_OBJECT 0), not the server`;
    expect(run.stdout).toContain(
      `SKIP createPet.full  a body with name, categoryId and status gets 201 and the Pet as sent, with an integer id  — ${answered}`,
    );
    expect(run.stderr).toMatch(
      /^petstore-conformance: \d+ required case\(s\) could not be judged, the proxy answering for the server: /,
    );
  });
});
