/**
 * A tiny HTTP/1.1 client over node:net for tests that must send what
 * node:http and undici refuse to: exact bytes, odd targets, slow writes. One
 * request per connection (`Connection: close`), answer read to the end.
 */
import { connect, type Socket } from 'node:net';

/** A parsed response; `interim` lists the 1xx statuses seen before it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  interim: number[];
}

/** Connects to 127.0.0.1:`port`, resolving once connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Reads everything the peer sends until it closes (or resets), within `timeoutMs`. */
export function readToEnd(socket: Socket, timeoutMs: number): Promise<{ data: Buffer; error?: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no end of response within ${timeoutMs} ms (got ${Buffer.concat(chunks).toString('latin1').slice(0, 200)})`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', (hadError) => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks), ...(hadError ? { error: 'reset' } : {}) });
    });
  });
}

/** Parses one response (after any 1xx) from `data`; `head` says the request was HEAD. */
export function parseResponse(data: Buffer, head = false): RawResponse {
  const interim: number[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`incomplete response: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    const lines = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0]!)?.[1]);
    if (!Number.isInteger(status)) throw new Error(`bad status line ${JSON.stringify(lines[0])}`);
    rest = rest.subarray(end + 4);
    if (status < 200) {
      interim.push(status);
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let body = rest;
    if (head || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (headers['transfer-encoding'] === 'chunked') body = dechunk(rest);
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (rest.length < length) throw new Error(`body cut short: ${rest.length} of ${length} bytes`);
      body = rest.subarray(0, length);
    }
    return { status, headers, body, interim };
  }
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) throw new Error('chunked body cut short');
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Sends `bytes` on a new connection and parses the answer. */
export async function rawExchange(
  port: number,
  bytes: Buffer | Buffer[],
  { head = false, timeoutMs = 5_000 } = {},
): Promise<RawResponse> {
  const socket = await openSocket(port);
  const reading = readToEnd(socket, timeoutMs);
  for (const part of Array.isArray(bytes) ? bytes : [bytes]) socket.write(part);
  socket.end();
  const { data } = await reading;
  return parseResponse(data, head);
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
