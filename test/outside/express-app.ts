/**
 * An Express 5 app on the toolkit's own OpenAPI document, written the way an
 * Express user writes one: `express.json()` first, then a bearer-key check,
 * then express-openapi-validator for requests, then handlers over an array.
 * Nobody on this project would write it this way for the mock; that is the
 * point: scripts/outside-targets.ts points the suite at it.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

interface StoredPet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

/** A running app: its base URL (ending in `/v1`), its key, and close. */
export interface ExpressApp {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1, port 0. */
export async function startExpressApp(specPath: string): Promise<ExpressApp> {
  const apiKey = 'express-app-key';
  const app = express();
  app.use(express.json());
  app.use('/v1', (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.status(401).json({ code: 'unauthorized', message: 'missing or wrong key', status: 401 });
      return;
    }
    next();
  });
  app.use(
    OpenApiValidator.middleware({
      apiSpec: specPath,
      validateRequests: true,
      validateResponses: false,
      validateSecurity: false,
    }),
  );
  const pets: StoredPet[] = [];
  let next = 1;
  app.get('/v1/pets', (req: Request, res: Response) => {
    const limit = Number(req.query.limit ?? 20);
    const list = pets.filter((p) => req.query.status === undefined || p.status === req.query.status);
    res.json(list.slice(0, limit));
  });
  app.post('/v1/pets', (req: Request, res: Response) => {
    const { name, categoryId, status } = req.body as StoredPet;
    const pet: StoredPet = { id: next++, name, categoryId, ...(status ? { status } : {}) };
    pets.push(pet);
    res.status(201).location(`/v1/pets/${pet.id}`).json(pet);
  });
  app.get('/v1/pets/:petId', (req: Request, res: Response) => {
    const pet = pets.find((p) => String(p.id) === String(req.params.petId));
    if (!pet) {
      res.status(404).json({ code: 'not_found', message: 'no such pet', status: 404 });
      return;
    }
    res.json(pet);
  });
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status ?? 500;
    res.status(status).json({ code: status === 400 ? 'invalid_request' : 'error', message: err.message, status });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
