/**
 * json-server 0.17.4 as its README starts it, `json-server db.json`, on a
 * fresh copy of a `pets` collection of two: its own process, the API at the
 * host's root, no authentication, whatever JSON is posted stored as sent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../../prism/index.ts';
import { spawnProcess } from '../support/processes.ts';

const DB = {
  pets: [
    { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  ],
};

/** A running json-server: its base URL (the host's root) and close. */
export interface JsonServer {
  url: string;
  close(): Promise<void>;
}

/** Starts `json-server --port P db.json` on 127.0.0.1 with a fresh database file. */
export async function startJsonServer(): Promise<JsonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'json-server-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify(DB));
  const bin = createRequire(import.meta.url).resolve('json-server/lib/cli/bin.js');
  const port = await findFreePort();
  const server = spawnProcess([process.execPath, bin, '--port', String(port), '--host', '127.0.0.1', 'db.json'], {
    cwd: dir,
  });
  const close = async (): Promise<void> => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await server.waitForOutput(/Home\s+http:/, 20_000);
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, close };
}
