/**
 * The bench's yardstick: a minimal node:http server, the practical limit for
 * Node here, doing the least work that gives the mock's answer. Plain
 * comparison of the bearer key; the read routes answer one fixed
 * pre-serialised body each (the mock's own answer, so the same bytes); POST
 * does what any server must to give the same answer: reads the body as text,
 * `JSON.parse`, checks `name` is a string and `categoryId` a safe integer (400
 * otherwise), assigns the next id, keeps the pet in an array and answers 201
 * with `JSON.stringify` of it and a `Location`. Default server settings, no
 * other header but Content-Type and Content-Length. It imports nothing of the
 * mock: a yardstick never carries the cost it measures.
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

function send(res: ServerResponse, answer: Prepared): void {
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

/** The pet POST keeps: the fields the request gave, and the id assigned. */
interface KeptPet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

/** The bench's control path that puts a resettable server back to its first state; bench/servers/capture.ts names it too. */
const RESET_PATH = '/__control/reset';
const RESET_BODY = '{"reset":true}';

/**
 * The least work that gives the mock's answer to a POST: parse, check the two
 * required fields, keep, serialise. `firstId` is the id the mock gave the
 * bench's first POST (its seeded pets come before).
 */
function createPets(firstId: number) {
  const kept: KeptPet[] = [];
  let nextId = firstId;
  const invalid = prepare({ status: 400, body: '{"code":"invalid_request","message":"invalid body","status":400}' });
  return {
    create(res: ServerResponse, text: string): void {
      let body: { name?: unknown; categoryId?: unknown; status?: unknown } | null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      if (typeof body?.name !== 'string' || !Number.isSafeInteger(body.categoryId)) {
        send(res, invalid);
        return;
      }
      const pet: KeptPet = { id: nextId++, name: body.name, categoryId: body.categoryId as number };
      if (typeof body.status === 'string') pet.status = body.status;
      kept.push(pet);
      const json = JSON.stringify(pet);
      res
        .writeHead(201, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(json),
          location: `/v1/pets/${pet.id}`,
        })
        .end(json);
    },
    reset(): void {
      kept.length = 0;
      nextId = firstId;
    },
  };
}

/** Makes the minimal server (not listening yet). */
export function createMinimalServer({ answers, authorized }: MinimalServerOptions): Server {
  const list = prepare(answers.list);
  const get = prepare(answers.get);
  const pets = createPets((JSON.parse(answers.create.body) as { id: number }).id);
  const unauthorized = prepare({
    status: 401,
    body: '{"code":"unauthorized","message":"API key invalid","status":401}',
  });
  const reset = prepare({ status: 200, body: RESET_BODY });
  return createServer((req, res) => {
    if (req.method !== 'POST') {
      req.resume();
      if (!authorized(req.headers.authorization)) return send(res, unauthorized);
      return send(res, routeOf(req) === 'get' ? get : list);
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      if (req.url === RESET_PATH) {
        pets.reset();
        return send(res, reset);
      }
      if (!authorized(req.headers.authorization)) return send(res, unauthorized);
      pets.create(res, text);
    });
  });
}
