/**
 * A Hono 4 app written from the interface document the way Hono's guides
 * teach: `bearerAuth` from hono/bearer-auth for the key, zod schemas checked by
 * `zValidator` from @hono/zod-validator with a hook that answers the
 * interface's Error, served by @hono/node-server. The rest is left to Hono's
 * defaults (bearerAuth's own plain-text 400 and 401, HTTPException answers).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { z } from 'zod';

const PetStatus = z.enum(['available', 'pending', 'sold']);

const NewPet = z.object({
  name: z.string(),
  categoryId: z.number().int(),
  status: PetStatus.optional(),
});

const ListPetsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: PetStatus.optional(),
});

const PetParams = z.object({ petId: z.coerce.number().int() });

type Pet = z.infer<typeof NewPet> & { id: number };

/** zValidator's hook: a failed check is the interface's 400 Error. */
function invalid(result: { success: boolean; error?: z.core.$ZodError }, c: Context) {
  if (!result.success) {
    const message = result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') ?? 'invalid';
    return c.json({ code: 'invalid_request', message, status: 400 }, 400);
  }
}

/** A running app: its base URL (ending in `/v1`), its key, and close. */
export interface HonoApp {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1, port 0. */
export async function startHonoApp(): Promise<HonoApp> {
  const apiKey = 'hono-app-key';
  const pets: Pet[] = [];
  let nextId = 1;
  const app = new Hono().basePath('/v1');
  app.use('*', bearerAuth({ token: apiKey }));
  app.get('/pets', zValidator('query', ListPetsQuery, invalid), (c) => {
    const { limit, status } = c.req.valid('query');
    return c.json(pets.filter((p) => status === undefined || p.status === status).slice(0, limit));
  });
  app.post('/pets', zValidator('json', NewPet, invalid), (c) => {
    const pet: Pet = { id: nextId++, ...c.req.valid('json') };
    pets.push(pet);
    return c.json(pet, 201);
  });
  app.get('/pets/:petId', zValidator('param', PetParams, invalid), (c) => {
    const pet = pets.find((p) => p.id === c.req.valid('param').petId);
    if (!pet) return c.json({ code: 'not_found', message: 'Pet not found', status: 404 }, 404);
    return c.json(pet);
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
  });
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
