import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, tsxEntry } from '../test/support/processes.ts';
import { parseCommandLine } from './command.ts';
import {
  type PrismServer,
  parseViolations,
  prismArgs,
  recordViolations,
  startPrism,
  summarizeViolations,
} from './index.ts';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('prismArgs', () => {
  it('maps the mock options to Prism flags, CORS on by default', () => {
    const args = prismArgs({ mode: 'mock', dynamic: true, seed: '7', spec: 'x.yaml' }, 4011);
    expect(args).toEqual([
      'mock',
      'x.yaml',
      '--port',
      '4011',
      '--host',
      '127.0.0.1',
      '--errors=false',
      '--cors=true',
      '--dynamic',
      '--seed',
      '7',
    ]);
  });

  it('maps the proxy options, CORS off by default so the upstream’s passes through', () => {
    const args = prismArgs({ mode: 'proxy', upstream: 'http://u/v1', errors: true, spec: 's.yaml' }, 4012);
    expect(args).toEqual([
      'proxy',
      's.yaml',
      'http://u/v1',
      '--port',
      '4012',
      '--host',
      '127.0.0.1',
      '--errors=true',
      '--cors=false',
    ]);
  });

  it('refuses options that do not fit the mode', () => {
    expect(() => prismArgs({ mode: 'proxy' }, 1)).toThrow(/upstream/);
    expect(() => prismArgs({ mode: 'mock', upstream: 'http://u' }, 1)).toThrow(/no upstream/);
    expect(() => prismArgs({ mode: 'proxy', upstream: 'http://u', dynamic: true }, 1)).toThrow(/mock mode only/);
  });
});

describe('parseCommandLine', () => {
  it('defaults the ports to 4011 (mock) and 4012 (proxy)', () => {
    expect(parseCommandLine(['mock'])).toEqual({ mode: 'mock', port: 4011 });
    expect(parseCommandLine(['proxy', '--upstream', 'http://h/v1', '--errors', '--no-cors'])).toEqual({
      mode: 'proxy',
      port: 4012,
      upstream: 'http://h/v1',
      errors: true,
      cors: false,
    });
    expect(parseCommandLine(['mock', '--dynamic', '--seed', 'a', '--port', '0', '--host', '::1'])).toMatchObject({
      dynamic: true,
      seed: 'a',
      port: 0,
      host: '::1',
    });
    expect(parseCommandLine(['--help'])).toBe('help');
  });

  it.each([
    [['proxy'], /needs --upstream/],
    [['mock', '--upstream', 'http://h'], /proxy only/],
    [['proxy', '--upstream', 'http://h', '--dynamic'], /mock only/],
    [['serve'], /mock or proxy/],
    [['mock', '--port', '70000'], /--port/],
    [['mock', 'extra'], /unexpected argument/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  it('prints help with exit 0 and a usage error with exit 2 (the CLI as run by npm)', async () => {
    const run = (args: string[]) => runProcess([...tsxEntry('prism/cli.ts'), ...args], { timeoutMs: 20_000 });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/npm run proxy -- --upstream URL/);
    const bad = await run(['proxy']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/needs --upstream/);
  });
});

describe('parseViolations and summarizeViolations', () => {
  it('reads the header Prism sends, and treats a missing one as clean', () => {
    const header =
      '[{"location":["response","body"],"severity":"Error","code":"type","message":"Response body must be array"}]';
    expect(parseViolations(header)).toEqual([
      { location: ['response', 'body'], severity: 'Error', code: 'type', message: 'Response body must be array' },
    ]);
    expect(parseViolations(undefined)).toEqual([]);
  });

  it('counts a truncated or unreadable header as an Error rather than guess', () => {
    expect(parseViolations('Too many violations! [{"loc')).toMatchObject([
      { severity: 'Error', message: expect.stringMatching(/truncated/) },
    ]);
    expect(parseViolations('nonsense')).toMatchObject([
      { severity: 'Error', message: expect.stringMatching(/unreadable/) },
    ]);
  });

  it('separates response errors, response warnings and request violations', () => {
    const summary = summarizeViolations([
      {
        method: 'GET',
        path: '/pets?limit=0',
        status: 400,
        body: '',
        violations: [
          { location: ['request', 'query', 'limit'], severity: 'Error', message: 'must be >= 1' },
          { location: ['response'], severity: 'Warning', message: 'Unable to match' },
        ],
      },
      {
        method: 'GET',
        path: '/pets',
        status: 200,
        body: '',
        violations: [{ location: ['response', 'body'], severity: 'Error', message: 'bad' }],
      },
    ]);
    expect(summary.requests).toBe(2);
    expect(summary.responseErrors.map((r) => r.path)).toEqual(['/pets']);
    expect([...summary.responseWarnings]).toEqual([['GET /pets -> 400: Unable to match', 1]]);
    expect([...summary.requestViolations]).toEqual([['Error request.query.limit: must be >= 1', 1]]);
  });
});

describe('startPrism', () => {
  it('rejects with Prism’s output when the spec cannot load, and leaves nothing running', async () => {
    const error = await startPrism({ mode: 'mock', spec: '/nonexistent/petstore.yaml', startTimeoutMs: 30_000 }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/exited/);
  });

  it('rejects a malformed upstream before spawning anything', async () => {
    await expect(startPrism({ mode: 'proxy', upstream: 'not a url' })).rejects.toThrow(/absolute http/);
  });
});

/** A server that breaks the spec on purpose (a Pet with a string id, Pets with a numeric name) and echoes POST bodies as it received them. */
function brokenUpstream(): Server {
  return createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => res.writeHead(201).end(body.replace(/}$/, ',"id":1}')));
      return;
    }
    res.end(req.url?.startsWith('/v1/pets/') ? '{"id":"seven","name":"Broken","categoryId":1}' : '[{"name":1}]');
  });
}

describe('the proxy in front of a server that breaks the spec', () => {
  let upstream: Server;
  let prism: PrismServer;
  let strict: PrismServer;

  beforeAll(async () => {
    upstream = brokenUpstream().listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    [prism, strict] = await Promise.all([
      startPrism({ mode: 'proxy', upstream: url }),
      startPrism({ mode: 'proxy', upstream: url, errors: true }),
    ]);
  });

  afterAll(async () => {
    await Promise.allSettled([prism?.close(), strict?.close()]);
    upstream?.close();
  });

  it('reports an Error-severity response violation in sl-violations and passes the response on', async () => {
    const recorder = recordViolations(prism.url);
    try {
      const res = await fetch(`${prism.url}/pets/7`, { headers: { authorization: 'Bearer k' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 'seven' });
      const violations = parseViolations(res.headers.get('sl-violations') ?? undefined);
      expect(violations).toContainEqual(
        expect.objectContaining({ location: ['response', 'body', 'id'], severity: 'Error' }),
      );
      expect(summarizeViolations(recorder.records).responseErrors).toHaveLength(1);
      expect(prism.output()).toMatch(/Violation: response\.body\.id/);
    } finally {
      recorder.stop();
    }
  });

  it('forwards a JSON body re-serialised: whitespace gone and an integer beyond 2^53 rounded', async () => {
    const res = await fetch(`${prism.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"name":  "Big", "categoryId": 9007199254740993}',
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"name":"Big","categoryId":9007199254740992,"id":1}');
  });

  it('with --errors turns the violating response into a 500 problem+json', async () => {
    const res = await fetch(`${strict.url}/pets`, { headers: { authorization: 'Bearer k' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      type: expect.stringMatching(/VIOLATIONS/),
      validation: expect.any(Array),
    });
  });

  it('with --errors answers an invalid request itself (401) and does not forward it', async () => {
    const res = await fetch(`${strict.url}/pets`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: expect.stringMatching(/UNAUTHORIZED/) });
  });

  it('is gone after close: the port no longer accepts connections', async () => {
    const port = prism.port;
    expect(await accepts(port)).toBe(true);
    await prism.close();
    await prism.close();
    expect(await accepts(port)).toBe(false);
  });
});
