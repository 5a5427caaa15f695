/**
 * Opens the store `--store` / `startMockServer({ store })` names: `memory`
 * (the default: nothing to open), `sqlite:FILE` or `postgres://…`. The
 * database drivers load only when their store is asked for.
 * @see ../../../docs/mock.md "Stores"
 */
import type { PetStore } from '../../core/store.ts';
import { parseStoreUrl } from './common.ts';

/** The database store `url` names, open and migrated; undefined for `memory`. A PetstoreMockError when it cannot. */
export async function openStore(url: string, budget: number): Promise<PetStore | undefined> {
  const parsed = parseStoreUrl(url);
  if (parsed.kind === 'memory') return undefined;
  if (parsed.kind === 'sqlite') return (await import('./sqlite.ts')).openSqliteStore(parsed.file, budget);
  return (await import('./postgres.ts')).openPostgresStore(parsed.url, budget);
}
