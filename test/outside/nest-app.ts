/**
 * Starts the NestJS app of test/outside/nest/ as its own process, as `nest
 * start` runs one: tsx with that folder's tsconfig (Nest's decorators are
 * TypeScript's experimental ones), its key in API_KEY, port 0.
 */
import { join } from 'node:path';
import { ROOT, spawnProcess, tsxEntry } from '../support/processes.ts';

/** A running app: its base URL (ending in `/v1`), its key, and close. */
export interface NestApp {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Starts test/outside/nest/main.ts on 127.0.0.1, port 0. */
export async function startNestApp(): Promise<NestApp> {
  const apiKey = 'nest-app-key';
  const dir = join(ROOT, 'test/outside/nest');
  const app = spawnProcess(tsxEntry(join(dir, 'main.ts')), {
    env: { ...process.env, API_KEY: apiKey, TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json') },
  });
  try {
    const [, origin] = await app.waitForOutput(/listening on (http:\S+)/, 30_000);
    return { url: `${origin}/v1`, apiKey, close: async () => void (await app.stop()) };
  } catch (error) {
    await app.stop();
    throw error;
  }
}
