/**
 * The mock's own traffic for the Prism proxy test: happy paths and every
 * negative case the mock answers (invalid bodies, bad limit, status and petId,
 * each 401 variant, each answer a `Prefer` header forces), each with the
 * status the mock is expected to give.
 * @see ../docs/contract.md "Endpoints", "Authentication", "Errors"
 */
import { readFileSync } from 'node:fs';

/** One request to send through the proxy; `path` is relative to the proxy root (`/pets`). */
export interface TrafficItem {
  label: string;
  method: 'GET' | 'POST' | 'HEAD' | 'DELETE' | 'OPTIONS';
  path: string;
  /** `key` sends the valid key; a string is sent as the whole Authorization value; `none` sends none. */
  auth: 'key' | 'none' | { authorization: string };
  body?: string;
  /** `null` sends no Content-Type; defaults to application/json when there is a body. */
  contentType?: string | null;
  headers?: Record<string, string>;
  /** What the mock answers (the proxy must pass it through). */
  status: number;
}

interface InvalidRow {
  id: string;
  contentType: string | null;
  body: string;
  statuses?: number[];
}

const INVALID_BODIES = new URL('../fixtures/invalid-new-pets.json', import.meta.url);

/** Invalid createPet bodies: the shared fixture table the conformance suite sends too. */
function invalidBodies(): TrafficItem[] {
  const rows = (JSON.parse(readFileSync(INVALID_BODIES, 'utf8')) as { bodies: InvalidRow[] }).bodies;
  return rows.map((row) => ({
    label: `invalid body ${row.id}`,
    method: 'POST',
    path: '/pets',
    auth: 'key',
    body: row.body.replaceAll('{{name}}', 'prism-proxy-test'),
    contentType: row.contentType,
    status: row.contentType === 'application/json' ? 400 : 415,
  }));
}

/** Bodies beyond the fixture table: the adapter's limits and the mock's documented choices. */
function moreBodies(): TrafficItem[] {
  const post = (label: string, body: string, status: number, contentType?: string | null): TrafficItem => ({
    label,
    method: 'POST',
    path: '/pets',
    auth: 'key',
    body,
    status,
    ...(contentType === undefined ? {} : { contentType }),
  });
  return [
    post('categoryId beyond 2^53', '{"name":"Big","categoryId":9007199254740993}', 400),
    post('body over 1 MiB', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), categoryId: 1 }), 413),
    post('no body, no Content-Type', '', 400, null),
    post('JSON with a charset parameter', '{"name":"Charset","categoryId":2}', 201, 'application/json; charset=utf-8'),
    post('unknown fields and a client id', '{"name":"Extra","categoryId":3,"id":1,"colour":"grey"}', 201),
  ];
}

function list(query: string, status: number, label = `GET /pets${query}`): TrafficItem {
  return { label, method: 'GET', path: `/pets${query}`, auth: 'key', status };
}

function get(id: string, status: number): TrafficItem {
  return { label: `GET /pets/${id}`, method: 'GET', path: `/pets/${id}`, auth: 'key', status };
}

/** Every 401 variant, on each of the three operations. */
function unauthorized(): TrafficItem[] {
  const variants: [string, TrafficItem['auth']][] = [
    ['no Authorization header', 'none'],
    ['a wrong key', { authorization: 'Bearer not-the-key' }],
    ['the Basic scheme', { authorization: 'Basic cGV0c3RvcmU6cGV0c3RvcmUtZGV2LWtleQ==' }],
    ['Bearer with an empty token', { authorization: 'Bearer ' }],
    ['a token scheme', { authorization: 'Token petstore-dev-key' }],
  ];
  const ops: Omit<TrafficItem, 'label' | 'auth' | 'status'>[] = [
    { method: 'GET', path: '/pets' },
    { method: 'POST', path: '/pets', body: '{"name":"Unauthorised","categoryId":1}' },
    { method: 'GET', path: '/pets/1' },
    // 401 comes before validation: an invalid request with a wrong key is still 401.
    { method: 'GET', path: '/pets?limit=0' },
  ];
  return ops.flatMap((op) =>
    variants.map(([what, auth]) => ({ ...op, label: `${op.method} ${op.path} with ${what}`, auth, status: 401 })),
  );
}

/** Forced answers (`Prefer`): each operation's documented errors and the service failures, with and without a delay. */
function forced(): TrafficItem[] {
  const ops: [Omit<TrafficItem, 'label' | 'auth' | 'status' | 'headers'>, number[]][] = [
    [{ method: 'GET', path: '/pets' }, [401]],
    [{ method: 'POST', path: '/pets', body: '{"name":"Forced","categoryId":1}' }, [400, 401]],
    [{ method: 'GET', path: '/pets/1' }, [401, 404]],
  ];
  return ops.flatMap(([op, documented]) =>
    [...documented, 429, 500, 502, 503, 504].map((status) => ({
      ...op,
      label: `${op.method} ${op.path} with Prefer: code=${status}`,
      auth: 'key' as const,
      headers: { prefer: status === 503 ? 'code=503, delay=5' : `code=${status}` },
      status,
    })),
  );
}

/** The whole table: happy paths first, then every negative case, then forced answers. */
export function mockTraffic(): TrafficItem[] {
  return [
    list('', 200),
    list('?limit=1', 200),
    list('?limit=100', 200),
    list('?status=available', 200),
    list('?status=pending', 200),
    list('?status=sold', 200),
    list('?limit=5&status=sold', 200),
    {
      label: 'create with status',
      method: 'POST',
      path: '/pets',
      auth: 'key',
      body: '{"name":"Rex","categoryId":2,"status":"pending"}',
      status: 201,
    },
    {
      label: 'create without status',
      method: 'POST',
      path: '/pets',
      auth: 'key',
      body: '{"name":"Tom","categoryId":3}',
      status: 201,
    },
    get('1', 200),
    get('50', 200),
    {
      label: 'lower-case bearer scheme',
      method: 'GET',
      path: '/pets?limit=1',
      auth: { authorization: 'bearer petstore-dev-key' },
      status: 200,
    },
    ...invalidBodies(),
    ...moreBodies(),
    ...['0', '101', '-1', 'abc', '1.5', '', '1e2', '0x10'].map((v) => list(`?limit=${encodeURIComponent(v)}`, 400)),
    list('?limit=1&limit=2', 400, 'GET /pets with limit twice'),
    ...['bogus', 'AVAILABLE', ''].map((v) => list(`?status=${encodeURIComponent(v)}`, 400)),
    list('?status=sold&status=pending', 400, 'GET /pets with status twice'),
    ...['abc', '1.5', '99999999999999999999', '%20'].map((id) => get(id, 400)),
    ...['0', '-1', '999999', '9223372036854775807'].map((id) => get(id, 404)),
    ...unauthorized(),
    { label: 'DELETE /pets', method: 'DELETE', path: '/pets', auth: 'key', status: 405 },
    { label: 'unknown route', method: 'GET', path: '/owners', auth: 'key', status: 404 },
    {
      label: 'CORS preflight',
      method: 'OPTIONS',
      path: '/pets',
      auth: 'none',
      headers: {
        origin: 'http://localhost:5173', // a loopback origin: the mock grants it by default
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
      status: 204,
    },
    ...forced(),
    {
      label: 'unsupported Prefer code',
      method: 'GET',
      path: '/pets',
      auth: 'key',
      headers: { prefer: 'code=418' },
      status: 400,
    },
  ];
}
