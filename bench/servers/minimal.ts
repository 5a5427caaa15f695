/**
 * The bench's yardstick: a minimal node:http server, the practical limit for
 * Node here. Plain comparison of the bearer key, one fixed pre-serialised body
 * per route (the mock's own answer, so the same size), default server
 * settings, no header but Content-Type and Content-Length. It imports nothing
 * of the mock: a yardstick never carries the cost it measures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The routes the bench loads. */
export type RouteName = 'list' | 'create' | 'get';

/** One fixed answer: the status and body the mock gave for that route. */
export interface FixedAnswer {
  status: number;
  body: string;
}

/** The minimal server's answers, one per route. */
export type FixedAnswers = Record<RouteName, FixedAnswer>;

/** Options for {@link createMinimalServer}. */
export interface MinimalServerOptions {
  answers: FixedAnswers;
  /** Whether an `Authorization` header may pass; {@link plainKeyCheck} in the yardstick itself. */
  authorized: (authorization: string | undefined) => boolean;
}

/** The yardstick's key check: one string comparison. */
export function plainKeyCheck(apiKey: string): (authorization: string | undefined) => boolean {
  const expected = `Bearer ${apiKey}`;
  return (authorization) => authorization === expected;
}

/** Which benchmarked route a request is for: POST is create, `/v1/pets/...` is get, the rest list. */
export function routeOf(req: IncomingMessage): RouteName {
  if (req.method === 'POST') return 'create';
  return req.url!.startsWith('/v1/pets/') ? 'get' : 'list';
}

interface Prepared {
  status: number;
  headers: { 'content-type': string; 'content-length': number };
  body: Buffer;
}

function prepare({ status, body }: FixedAnswer): Prepared {
  const bytes = Buffer.from(body);
  return { status, headers: { 'content-type': 'application/json', 'content-length': bytes.length }, body: bytes };
}

/** Sends `answer` once the request's body has been read, as any server of JSON must. */
function afterBody(req: IncomingMessage, res: ServerResponse, answer: Prepared): void {
  const send = (): void => void res.writeHead(answer.status, answer.headers).end(answer.body);
  if (req.method === 'POST') {
    req.on('data', () => {});
    req.on('end', send);
  } else {
    req.resume();
    send();
  }
}

/** Makes the minimal server (not listening yet). */
export function createMinimalServer({ answers, authorized }: MinimalServerOptions): Server {
  const prepared: Record<RouteName, Prepared> = {
    list: prepare(answers.list),
    create: prepare(answers.create),
    get: prepare(answers.get),
  };
  const unauthorized = prepare({
    status: 401,
    body: '{"code":"unauthorized","message":"API key invalid","status":401}',
  });
  return createServer((req, res) => {
    afterBody(req, res, authorized(req.headers.authorization) ? prepared[routeOf(req)] : unauthorized);
  });
}
