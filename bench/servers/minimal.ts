/**
 * The bench's yardstick: a minimal node:http server, the practical limit for
 * Node here, doing the least work that gives the mock's answer. Plain
 * comparison of the bearer key; the read routes answer bytes prepared once
 * (the mock's own answers, so the same bytes), a listing's bytes made again
 * from the kept pets only after a write of its own that the listing holds
 * (a new pet has the highest id: a full listing, or one of another status,
 * stays as it was); POST does what any server must to give the same answer:
 * reads the body as text, `JSON.parse`, checks `name` is a string and
 * `categoryId` a safe integer (400 otherwise), assigns the next id, keeps the
 * pet and answers 201 with `JSON.stringify` of it and a `Location`. Default
 * server settings, no other header but Content-Type and Content-Length, and
 * those the mock's answer carries by design (getPet's deprecation headers).
 * It imports nothing of the mock: a yardstick never carries the cost it
 * measures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The routes the bench asks, one request each. */
export type RouteName = 'list' | 'sold' | 'create' | 'get';

/** One fixed answer: the status and body the mock gave for that route, and the headers of its answer besides the body's. */
export interface FixedAnswer {
  status: number;
  body: string;
  /**
   * The headers that are part of the answer (getPet's `Deprecation`, `Sunset` and `Link`, which the mock sends as the
   * choices table says a deprecated operation's answer carries), sent as they are: a server giving the same answer sends them too.
   */
  headers?: Record<string, string>;
}

/** The minimal server's answers, one per route, and the pets it starts with (the mock's, as JSON text). */
export type FixedAnswers = Record<RouteName, FixedAnswer> & { pets: string };

/** Options for {@link createMinimalServer}. */
interface MinimalServerOptions {
  answers: FixedAnswers;
  /** Whether an `Authorization` header may pass; {@link plainKeyCheck} in the yardstick itself. */
  authorized: (authorization: string | undefined) => boolean;
}

/** The yardstick's key check: one string comparison. */
export function plainKeyCheck(apiKey: string): (authorization: string | undefined) => boolean {
  const expected = `Bearer ${apiKey}`;
  return (authorization) => authorization === expected;
}

const SOLD_URL = '/v1/pets?status=sold&limit=100';

/** Which benchmarked route a request is for: POST is create, `/v1/pets/...` is get, the sold listing, the rest list. */
function routeOf(req: IncomingMessage): RouteName {
  if (req.method === 'POST') return 'create';
  if (req.url!.startsWith('/v1/pets/')) return 'get';
  return req.url === SOLD_URL ? 'sold' : 'list';
}

interface Prepared {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

function prepare({ status, body, headers }: FixedAnswer): Prepared {
  const bytes = Buffer.from(body);
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers, 'content-length': bytes.length },
    body: bytes,
  };
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
/** What each listing asks for. */
const LISTINGS = { list: { limit: 20, status: undefined }, sold: { limit: 100, status: 'sold' } } as const;

/** Whether a pet of `status` belongs in the listing of `route` (up to its limit). */
function holds(route: 'list' | 'sold', status: string | undefined): boolean {
  const wanted = LISTINGS[route].status;
  return wanted === undefined || wanted === status;
}

/**
 * The pets, as JSON text with their status, and the least work that gives the mock's answer to a POST: parse,
 * check the two required fields, keep, serialise. A listing's bytes are made once and kept until a write it holds.
 */
function createPets(answers: FixedAnswers) {
  const seeded = (JSON.parse(answers.pets) as KeptPet[]).map((pet) => ({
    json: JSON.stringify(pet),
    status: pet.status,
  }));
  const firstId = (JSON.parse(answers.create.body) as { id: number }).id;
  const first = { list: prepare(answers.list), sold: prepare(answers.sold) };
  let kept = [...seeded];
  let nextId = firstId;
  let listings: { list?: Prepared; sold?: Prepared } = { ...first };
  // How many pets each kept listing holds: a new pet (the highest id, so the last) enters one only below its limit.
  const countIn = (route: 'list' | 'sold') =>
    Math.min(LISTINGS[route].limit, seeded.filter((pet) => holds(route, pet.status)).length);
  const firstCounts = { list: countIn('list'), sold: countIn('sold') };
  let counts = { ...firstCounts };
  const invalid = prepare({ status: 400, body: '{"code":"invalid_request","message":"invalid body","status":400}' });
  const listing = (route: 'list' | 'sold'): Prepared => {
    const { limit } = LISTINGS[route];
    const parts: string[] = [];
    for (let i = 0; i < kept.length && parts.length < limit; i++)
      if (holds(route, kept[i]!.status)) parts.push(kept[i]!.json);
    counts[route] = parts.length;
    return prepare({ status: 200, body: `[${parts.join(',')}]` });
  };
  return {
    list(res: ServerResponse, route: 'list' | 'sold'): void {
      send(res, (listings[route] ??= listing(route)));
    },
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
      const json = JSON.stringify(pet);
      kept.push({ json, status: pet.status });
      // Only a listing the new pet enters is made again; a full one, or one of another status, stays as it was.
      for (const route of ['list', 'sold'] as const) {
        if (holds(route, pet.status) && counts[route] < LISTINGS[route].limit) {
          listings[route] = undefined;
          counts[route]++;
        }
      }
      res
        .writeHead(201, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(json),
          location: `/v1/pets/${pet.id}`,
        })
        .end(json);
    },
    reset(): void {
      kept = [...seeded];
      nextId = firstId;
      listings = { ...first };
      counts = { ...firstCounts };
    },
  };
}

/** Makes the minimal server (not listening yet). */
export function createMinimalServer({ answers, authorized }: MinimalServerOptions): Server {
  const get = prepare(answers.get);
  const pets = createPets(answers);
  const unauthorized = prepare({
    status: 401,
    body: '{"code":"unauthorized","message":"API key invalid","status":401}',
  });
  const reset = prepare({ status: 200, body: RESET_BODY });
  return createServer((req, res) => {
    if (req.method !== 'POST') {
      // Nothing to read: node:http ends an unread request's stream itself once the answer is sent.
      if (!authorized(req.headers.authorization)) return send(res, unauthorized);
      const route = routeOf(req);
      return route === 'get' ? send(res, get) : pets.list(res, route as 'list' | 'sold');
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
