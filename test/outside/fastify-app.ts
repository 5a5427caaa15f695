/**
 * A Fastify 5 app written from the interface document the way Fastify's guides
 * teach ("Validation and Serialization", "Hooks"): a route schema for each
 * operation's querystring, params, body and responses, validated by Fastify's
 * own ajv with its defaults (coerceTypes 'array', removeAdditional, useDefaults),
 * the key checked in an onRequest hook, routes registered under the `/v1` prefix.
 * Two variants: Fastify's default error handler, whose 400 body is
 * `{statusCode, code, error, message}`, and one with `setErrorHandler` mapping
 * every error (validation first) to the interface's Error `{code, message, status}`.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';

const STATUSES = ['available', 'pending', 'sold'];

const pet = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

const error = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
} as const;

const newPet = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

/** Options of {@link startFastifyApp}. */
export interface FastifyAppOptions {
  /** Map every error to the interface's Error with `setErrorHandler` (default: Fastify's own error bodies). */
  errorHandler?: boolean;
}

/** A running app: its base URL (ending in `/v1`), its key, and close. */
export interface FastifyApp {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

function petRoutes(pets: Pet[]) {
  let nextId = 1;
  return async (app: FastifyInstance): Promise<void> => {
    app.get<{ Querystring: { limit: number; status?: string } }>(
      '/pets',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: {
              limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
              status: { type: 'string', enum: STATUSES },
            },
          },
          response: { 200: { type: 'array', items: pet }, 401: error },
        },
      },
      async (request) => {
        const { limit, status } = request.query;
        return pets.filter((p) => status === undefined || p.status === status).slice(0, limit);
      },
    );
    app.post<{ Body: Omit<Pet, 'id'> }>(
      '/pets',
      { schema: { body: newPet, response: { 201: pet, 401: error } } },
      async (request, reply) => {
        const created: Pet = { id: nextId++, ...request.body };
        pets.push(created);
        return reply.code(201).header('location', `/v1/pets/${created.id}`).send(created);
      },
    );
    app.get<{ Params: { petId: number } }>(
      '/pets/:petId',
      {
        schema: {
          params: { type: 'object', properties: { petId: { type: 'integer' } } },
          response: { 200: pet, 401: error, 404: error },
        },
      },
      async (request, reply) => {
        const found = pets.find((p) => p.id === request.params.petId);
        if (!found) return reply.code(404).send({ code: 'not_found', message: 'Pet not found', status: 404 });
        return found;
      },
    );
  };
}

/** Starts the app on 127.0.0.1, port 0. */
export async function startFastifyApp(options: FastifyAppOptions = {}): Promise<FastifyApp> {
  const apiKey = 'fastify-app-key';
  const app = Fastify();
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return reply.code(401).send({ code: 'unauthorized', message: 'Missing or invalid API key', status: 401 });
    }
  });
  if (options.errorHandler) {
    app.setErrorHandler((err: FastifyError, _request, reply) => {
      if (err.validation) {
        return reply.code(400).send({ code: 'invalid_request', message: err.message, status: 400 });
      }
      const status = err.statusCode !== undefined && err.statusCode >= 400 ? err.statusCode : 500;
      return reply.code(status).send({ code: err.code ?? 'internal_error', message: err.message, status });
    });
  }
  await app.register(petRoutes([]), { prefix: '/v1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/v1`, apiKey, close: () => app.close() };
}
