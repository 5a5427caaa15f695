/**
 * A HAR exported by mitmproxy (Debian's `mitmproxy` package, 8.1.1, whose HAR
 * export is the `har_dump.py` addon it ships among its examples), recorded by
 * proxying requests to the mock, one of them forced by a scenario to an answer
 * the contract does not list. Skipped, saying so, where mitmproxy is not
 * installed (`apt-get install -y mitmproxy`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetch, ProxyAgent } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { judgeTraffic, REPORTERS, renderReport } from '../conformance/index.ts';
import { startMockServer } from '../mock/node/index.ts';

const ADDON = '/usr/share/doc/mitmproxy/examples/contrib/har_dump.py';
const installed = spawnSync('mitmdump', ['--version']).status === 0;
// The HAR addon ships in the package's examples, which an image that strips /usr/share/doc leaves out.
const addon = existsSync(ADDON);
const KEY = 'sk-mitm-recorded-5521ab';
const dir = mkdtempSync(join(tmpdir(), 'petstore-mitm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts mitmdump on a free-looking port with the HAR addon; resolves once it accepts connections. */
async function startMitmdump(har: string): Promise<{ proc: ChildProcess; port: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (await listening(port)) continue;
    const args = [
      '--listen-host',
      '127.0.0.1',
      '--listen-port',
      String(port),
      '-q',
      '-s',
      ADDON,
      '--set',
      `hardump=${har}`,
    ];
    const proc = spawn('mitmdump', args, { stdio: 'ignore' });
    for (let i = 0; i < 100 && proc.exitCode === null; i++) {
      if (await listening(port)) return { proc, port };
      await new Promise((r) => setTimeout(r, 100));
    }
    proc.kill('SIGKILL');
  }
  throw new Error('mitmdump did not start');
}

// npm test installs Debian's mitmproxy (scripts/system-packages.mjs): without mitmdump this fails, never skips green.
it.skipIf(installed && !addon)(
  'judges a HAR mitmproxy exported, naming the server fault and hiding the key',
  async () => {
    expect(installed, `Debian's mitmproxy (mitmdump and ${ADDON}): sudo apt-get install -y mitmproxy`).toBe(true);
    const mock = await startMockServer({ count: 4, apiKeys: [KEY] });
    const har = join(dir, 'mitm.har');
    const { proc, port } = await startMitmdump(har);
    try {
      mock.scenarios.add({ method: 'GET', path: '/v1/pets/{petId}', status: 400, times: 1 });
      const agent = new ProxyAgent(`http://127.0.0.1:${port}`);
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const sent: [string, string, string?][] = [
        ['GET', '/pets?limit=2'],
        ['POST', '/pets', '{"name":"Mitm","categoryId":1}'],
        ['GET', '/pets/1'],
      ];
      for (const [method, path, body] of sent) {
        const res = await fetch(`${mock.url}${path}`, {
          method,
          dispatcher: agent,
          headers,
          ...(body ? { body } : {}),
        });
        await res.text();
      }
      await agent.close();
    } finally {
      proc.kill('SIGINT');
      await once(proc, 'exit');
      await mock.close();
    }
    expect(JSON.parse(readFileSync(har, 'utf8')).log.creator.name).toBe('mitmproxy har_dump');
    const report = await judgeTraffic({ files: [har], baseUrl: mock.url, exchangeLog: true });
    expect(report.traffic?.judged).toBe(3);
    const causes = (report.causes ?? []).map((c) => `${c.side} ${c.statement}`);
    expect(causes).toEqual([expect.stringMatching(/^server .*GET \/v1\/pets\/\{petId\} answers 400/)]);
    expect(readFileSync(har, 'utf8')).toContain(KEY);
    expect(REPORTERS.map((name) => renderReport(name, report)).join('\n')).not.toContain(KEY);
  },
  60_000,
);
