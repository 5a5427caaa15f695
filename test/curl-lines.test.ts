/**
 * Every curl line a report prints reproduces the request byte for byte: each line below is run by bash against a
 * server that records what arrived, and the bytes are compared with what the suite would send. A DEL or a newline
 * inside plain single quotes was printed as the text `\x7f` (the report shows control bytes escaped), so the line
 * sent four characters instead of the byte; such bodies now go in bash's $'…'.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControls } from '../conformance/report/controls.ts';
import { renderCurl } from '../conformance/report/format.ts';
import type { ExchangeRequest } from '../conformance/types.ts';

const run = promisify(execFile);
let server: Server;
let base = '';
const received: { method: string; url: string; headers: Record<string, unknown>; body: Buffer }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const BODIES: [string, string][] = [
  ['a DEL byte', '{"name":"%\x7faxa"}'],
  ['a newline, a tab and a carriage return', '{"name":"a\nb\tc\rd"}'],
  ['quotes and backslashes', `{"name":"it's \\"x\\" \\\\ $HOME \`ls\`"}`],
  ['non-ASCII and an emoji', '{"name":"ñandú 🐕‍🦺"}'],
  ['an escape byte', '{"name":"\x1b[31mred"}'],
  ['a lone surrogate (sent as U+FFFD)', '{"name":"\ud800x"}'],
  ['plain JSON', '{"name":"Rex","categoryId":1}'],
];

async function sent(request: ExchangeRequest): Promise<(typeof received)[number]> {
  received.length = 0;
  await run('bash', ['-c', `${renderCurl(request)} -o /dev/null`], { timeout: 10_000 });
  expect(received).toHaveLength(1);
  return received[0]!;
}

describe('printed curl lines', () => {
  it.each(BODIES)('send %s byte for byte', async (_name, body) => {
    const request = {
      method: 'POST',
      url: `${base}/v1/pets?status=sold&name=a%20b`,
      headers: { 'content-type': 'application/json', 'x-tenant': "qa 'seven'" },
      body,
    };
    const got = await sent(request);
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/pets?status=sold&name=a%20b');
    expect(got.headers['x-tenant']).toBe("qa 'seven'");
    expect(got.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
  });

  it('send a target in absolute form as it went out (curl sends origin form unless told)', async () => {
    const url = `${base}/v1/pets?limit=1`;
    const got = await sent({ method: 'GET', url, headers: {}, absoluteForm: true });
    expect([got.method, got.url]).toEqual(['GET', url]);
    expect((await sent({ method: 'GET', url, headers: {} })).url).toBe('/v1/pets?limit=1');
  });

  it.each(BODIES)('hold %s in no raw control byte: the terminal and HTML print the line as it is', (_name, body) => {
    const line = renderCurl({ method: 'POST', url: `${base}/v1/pets`, headers: {}, body });
    expect(escapeControls(line)).toBe(line);
  });
});
