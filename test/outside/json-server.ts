/**
 * json-server 0.17.4 with a `pets` collection of two, as its README starts
 * one (`json-server db.json`), in memory and on port 0: the API at the host's
 * root, no authentication, whatever JSON is posted stored as sent.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import jsonServer from 'json-server';

/** A running json-server: its base URL (the host's root) and close. */
export interface JsonServer {
  url: string;
  close(): Promise<void>;
}

/** Starts json-server on 127.0.0.1, port 0, with a fresh database. */
export async function startJsonServer(): Promise<JsonServer> {
  const app = jsonServer.create();
  // Its error handler prints every 500's stack trace unless NODE_ENV is `test` (read when defaults() is called).
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'test';
  app.use(jsonServer.defaults({ logger: false }));
  if (env === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = env;
  app.use(
    jsonServer.router({
      pets: [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
      ],
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
