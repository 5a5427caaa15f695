/**
 * Small servers on 127.0.0.1 that break HTTP in one way each, for running the
 * conformance suite against: hang, reset, non-JSON, 10 MB, redirect, close
 * mid-body, slow body, slow headers, not HTTP at all (an SSH banner), answer
 * once then reset; and one that echoes the API key back in every spelling it can. Each keeps track of its sockets and timers so that
 * close() leaves nothing behind.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';

/** The ways a target can misbehave. */
export type HostileKind =
  | 'hang'
  | 'reset'
  | 'nonJson'
  | 'huge'
  | 'redirect'
  | 'closeMidBody'
  | 'slowBody'
  | 'slowHeaders'
  | 'notHttp'
  | 'diesAfterFirst'
  | 'echoKey'
  | 'echoKeyLowerHex'
  | 'manyObjects'
  | 'deepNesting';

/** `manyObjects`' answer: just under 1 MiB of empty objects in one array (350,000 of them). */
const MANY_OBJECTS = `[${'{},'.repeat(349_000)}{}]`;
/** `deepNesting`'s answer: arrays 1,500 deep, 3 KB. */
const DEEP_NESTING = `${'['.repeat(1500)}${']'.repeat(1500)}`;

/** A running target. */
export interface HostileTarget {
  /** Base URL ending in `/v1`. */
  url: string;
  /** Requests received (and, for `redirect`, requests the redirect's destination received). */
  requests: number;
  redirectFollowed: number;
  /** Authorization headers the redirect's destination saw. */
  leakedAuthorization: string[];
  close(): Promise<void>;
}

/** Size of the `huge` body: 10 MB. */
export const HUGE_BYTES = 10 * 1024 * 1024;

/** Spellings of `key` a careless server might echo: verbatim, as a Bearer credential, URL-encoded, base64, JSON-escaped. */
export function keySpellings(key: string): string[] {
  return [
    key,
    `Bearer ${key}`,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    JSON.stringify(key).slice(1, -1),
    // The Authorization header as a gateway might log it, base64 and base64url at offset 7.
    Buffer.from(`Bearer ${key}`).toString('base64'),
    Buffer.from(`Bearer ${key}`).toString('base64url'),
    [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...key].map((c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`).join(''),
    [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  ];
}

/** `key` URL-encoded with lower-case hex (`%2f`): as valid as `%2F` (RFC 3986 §2.1), and what some libraries write. */
export function lowerHexSpelling(key: string): string {
  return encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
}

/** Starts a target of `kind`; `key` is what `echoKey` echoes (besides whatever Authorization it is sent). */
export async function startHostileTarget(kind: HostileKind, key = ''): Promise<HostileTarget> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const target = { requests: 0, redirectFollowed: 0, leakedAuthorization: [] as string[] };

  let trap: Server | undefined;
  let trapOrigin = '';
  if (kind === 'redirect') {
    trap = createHttpServer((req, res) => {
      target.redirectFollowed++;
      if (req.headers.authorization) target.leakedAuthorization.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    trap.on('connection', (s: Socket) => track(sockets, s));
    trapOrigin = await listen(trap);
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    target.requests++;
    req.resume();
    switch (kind) {
      case 'hang':
        return;
      case 'manyObjects':
      case 'deepNesting':
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(kind === 'manyObjects' ? MANY_OBJECTS : DEEP_NESTING);
        return;
      case 'nonJson':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><h1>Pets</h1><p>not JSON</p></body></html>');
        return;
      case 'huge':
        streamHuge(res);
        return;
      case 'redirect':
        res
          .writeHead(req.method === 'POST' ? 307 : 302, {
            location: `${trapOrigin}/v1${req.url?.replace(/^\/v1/, '') ?? ''}`,
          })
          .end();
        return;
      case 'closeMidBody':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
        res.write('[{"id":1,"name":"cut');
        later(20, () => res.socket?.destroy());
        return;
      case 'slowBody': {
        const body = '[{"id":1,"name":"slow","categoryId":1}]';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        const drip = (i: number): void => {
          if (res.destroyed || i >= body.length) return void res.end();
          res.write(body[i]);
          later(100, () => drip(i + 1));
        };
        drip(0);
        return;
      }
      case 'slowHeaders':
        later(2_000, () => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        });
        return;
      case 'echoKey':
        echo(req, res, key, keySpellings(key));
        return;
      case 'echoKeyLowerHex':
        echo(req, res, key, [lowerHexSpelling(key)]);
        return;
      default:
        res.writeHead(500).end();
    }
  };

  let server: Server;
  if (kind === 'reset' || kind === 'diesAfterFirst' || kind === 'notHttp') {
    server = createNetServer((socket) => {
      track(sockets, socket);
      if (kind === 'notHttp') socket.write('SSH-2.0-OpenSSH_9.6\r\n');
      socket.on('data', () => {
        target.requests++;
        if (kind === 'notHttp') return;
        if (kind === 'diesAfterFirst' && target.requests === 1)
          return void socket.end(
            'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n[]',
          );
        socket.resetAndDestroy();
      });
    });
  } else {
    const http = createHttpServer(handle);
    http.on('connection', (s: Socket) => track(sockets, s));
    server = http;
  }
  const origin = await listen(server);
  return {
    url: `${origin}/v1`,
    get requests() {
      return target.requests;
    },
    get redirectFollowed() {
      return target.redirectFollowed;
    },
    leakedAuthorization: target.leakedAuthorization,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await Promise.all(
        [server, trap]
          .filter((s): s is Server => s !== undefined)
          .map((s) => new Promise((resolve) => s.close(resolve))),
      );
    },
  };
}

function track(sockets: Set<Socket>, socket: Socket): void {
  sockets.add(socket);
  socket.on('error', () => undefined);
  socket.once('close', () => sockets.delete(socket));
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A 10 MB JSON array, written with back-pressure, abandoned as soon as the client goes. */
function streamHuge(res: ServerResponse): void {
  const item = '{"id":1,"name":"padding-padding-padding-padding","categoryId":1},';
  const chunk = Buffer.from(item.repeat(Math.floor((64 * 1024) / item.length)));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': HUGE_BYTES });
  res.write('[');
  let sent = 1;
  const pump = (): void => {
    while (!res.destroyed && sent + chunk.length < HUGE_BYTES - 1) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(`${' '.repeat(HUGE_BYTES - sent - 1)}]`);
  };
  pump();
}

/**
 * Answers plausibly (401s, Pets, Pet, Errors) while echoing the key in each
 * of `forms`, in headers, bodies and a JSON key. With more than one form
 * (`echoKey`) it also echoes the Authorization header and the bare key.
 */
function echo(req: IncomingMessage, res: ServerResponse, key: string, forms: string[]): void {
  const everything = forms.length > 1;
  const received = req.headers.authorization ?? '';
  const spellings = everything ? [received, ...forms] : forms;
  const shown = everything ? key : forms[0]!;
  const inUrl = everything ? encodeURIComponent(key) : forms[0]!;
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json',
    'x-echo-key': spellings.join(' | '),
    'set-cookie': [`session=${inUrl}`],
    link: `<http://127.0.0.1/next?token=${inUrl}>; rel="next"`,
  };
  if (everything) {
    headers['x-echo-authorization'] = received;
    headers['www-authenticate'] =
      `Bearer realm="petstore", error="invalid_token", error_description="${key.replace(/"/g, '')}"`;
  }
  const path = req.url ?? '';
  let status = 200;
  let body: unknown = spellings.map((name, i) => ({ id: i + 1, name, categoryId: 1, status: 'available' }));
  if (received !== `Bearer ${key}`) {
    status = 401;
    body = {
      code: 'unauthorized',
      message: `bad key: ${spellings.join(' / ')}`,
      status: 401,
      [shown]: received || shown,
    };
  } else if (req.method === 'POST') {
    status = 201;
    body = { id: 7, name: shown, categoryId: 1, echoed: spellings };
  } else if (/^\/v1\/pets\/7$/.test(path)) {
    body = { id: 7, name: `pet of ${shown}`, categoryId: 1, status: 'available' };
  } else if (/^\/v1\/pets\//.test(path)) {
    status = 404;
    body = { code: 'not_found', message: `no pet for key ${shown} at ${path}`, status: 404 };
  }
  res.writeHead(status, headers).end(JSON.stringify(body));
}
