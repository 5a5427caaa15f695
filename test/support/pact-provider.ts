/**
 * A small Petstore provider for the Pact verification tests: its own pets (other ids, names and categories than
 * the mock's), its own choices where the contract leaves them open (`application/json; charset=utf-8`, no
 * deprecation headers), and a state handler at `/_states` for the mock's state vocabulary. With
 * `categoryIdAsString` it breaks the contract the way a careless serializer does.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

/** Options of {@link startPactProvider}. */
export interface PactProviderOptions {
  key: string;
  /** Answer every `categoryId` as a string: the contract broken. */
  categoryIdAsString?: boolean;
}

/** Starts the provider on a free port; resolves to its origin and a close function. */
export async function startPactProvider(options: PactProviderOptions) {
  let pets: Pet[] = [
    { id: 1001, name: 'Alpha', categoryId: 40, status: 'available' },
    { id: 1002, name: 'Bravo', categoryId: 41 },
  ];
  let nextId = 2000;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body, (k, v) => (k === 'categoryId' && options.categoryIdAsString ? String(v) : v));
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(text);
  };
  const error = (res: ServerResponse, status: number, code: string) =>
    send(res, status, { code, message: code, status });
  const setState = (state: string, params: Record<string, any>) => {
    const id = Number(params.id);
    if (/^a pet with id /.test(state))
      pets = [
        ...pets.filter((p) => p.id !== id),
        {
          id,
          name: params.name ?? 'Zed',
          categoryId: params.categoryId ?? 9,
          ...(params.status ? { status: params.status } : {}),
        },
      ];
    else if (/^no pet with id /.test(state)) pets = pets.filter((p) => p.id !== id);
    else if (state === 'no pets') pets = [];
    else if (state === 'pets exist' && pets.length === 0) pets = [{ id: 1003, name: 'Echo', categoryId: 3 }];
    else if (/^a pet with status /.test(state) && !pets.some((p) => p.status === params.status))
      pets.push({ id: nextId++, name: 'Foxtrot', categoryId: 5, status: params.status });
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://provider');
    if (url.pathname === '/_states') {
      const change = JSON.parse(text || '{}') as { state?: string; params?: Record<string, unknown>; action?: string };
      if (change.action !== 'teardown') setState(change.state ?? '', change.params ?? {});
      return send(res, 200, {});
    }
    if (req.headers.authorization !== `Bearer ${options.key}`) return error(res, 401, 'no_key');
    const one = /^\/v1\/pets\/([0-9]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const pet = pets.find((p) => p.id === Number(one[1]));
      return pet ? send(res, 200, pet) : error(res, 404, 'missing');
    }
    if (url.pathname !== '/v1/pets') return error(res, 404, 'no_route');
    if (req.method === 'GET') {
      const status = url.searchParams.get('status');
      const limit = Number(url.searchParams.get('limit') ?? 20);
      return send(res, 200, pets.filter((p) => status === null || p.status === status).slice(0, limit));
    }
    const body = JSON.parse(text) as Omit<Pet, 'id'>;
    const pet = { ...body, id: nextId++ };
    pets.push(pet);
    return send(res, 201, pet);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => error(res, 400, 'bad_request'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
