/**
 * Sessions on a database store: refused at creation with one clear line (a session's pets would be every mock's on
 * the store, not its own), in process and over HTTP, and the mock goes on serving the store as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-sessions-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('refuses a session on SQLite with one line saying why, and serves the store as before', async () => {
  const petstore = await startMockServer({ port: 0, count: 5, store: `sqlite:${join(dir, 'pets.db')}` });
  try {
    expect(() => petstore.session('a')).toThrow(
      expect.objectContaining({
        code: 'PETSTORE_MOCK_SESSION_REFUSED',
        message: expect.stringMatching(/memory store/),
      }),
    );
    const root = petstore.url.slice(0, -'/v1'.length);
    const made = await fetch(`${root}/__control/sessions`, { method: 'POST' });
    expect(made.status).toBe(409);
    const body = (await made.json()) as { code: string; message: string };
    expect(body.code).toBe('sessions_unsupported');
    expect(body.message).not.toContain('\n');
    expect(body.message).toMatch(/sessions need the memory store/);
    const listed = await fetch(`${petstore.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(((await listed.json()) as unknown[]).length).toBe(5);
    expect((await fetch(`${root}/sessions/a/v1/pets`)).status).toBe(404);
  } finally {
    await petstore.close();
  }
}, 60_000);
