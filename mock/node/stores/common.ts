/**
 * What the database stores share: how a store URL is read and shown (its
 * password hidden), how a row becomes a Pet's JSON text, what a pet counts
 * against the byte budget, and the schema's version.
 */
import { createHash } from 'node:crypto';
import { redactKeys, urlUserInfo } from '../../../guard/redact.ts';
import type { NewPet, Pet } from '../../../spec/index.ts';
import { badOption, PetstoreMockError } from '../../core/errors.ts';
import { petBytes, petJson, StoreFullError } from '../../core/store.ts';

/** The schema version this mock writes and reads; an older one is migrated, a newer one refused. */
export const SCHEMA_VERSION = 2;

/** A rate-limit bucket as a database keeps it: a SHA-256 of the `Authorization` value, never the key itself. */
export function bucketHash(bucket: string): string {
  return createHash('sha256').update(bucket).digest('base64url');
}

/** Windows older than this many seconds are deleted now and then (they no longer count). */
export const RATE_WINDOWS_KEPT = 10;

/** A store as `--store` names it. */
type StoreUrl = { kind: 'memory' } | { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** `memory`, `sqlite:FILE` or `postgres://…` (`postgresql://…`); a PetstoreMockError (`..._BAD_OPTION`) otherwise. */
export function parseStoreUrl(text: string): StoreUrl {
  if (text === 'memory' || text === 'memory:') return { kind: 'memory' };
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '' || file === '//') throw badOption('store', `sqlite: needs a file, like sqlite:./petstore.db`);
    return { kind: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//i.test(text)) {
    try {
      new URL(text);
    } catch {
      throw badOption('store', `is not a URL: ${hidePassword(text)}`);
    }
    return { kind: 'postgres', url: text };
  }
  throw badOption(
    'store',
    `must be memory, sqlite:FILE or postgres://USER@HOST:PORT/DATABASE, got ${JSON.stringify(hidePassword(text))}`,
  );
}

/** `url` with the password of its user info, and any `password=` parameter, replaced by `***`. */
export function hidePassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** The password's spellings in `url` (as written and decoded), to take out of anything a driver says. */
export function passwordsOf(url: string): string[] {
  // urlUserInfo gives the whole user info, then its parts as written, then decoded: the password is what follows a colon.
  const info = urlUserInfo(url);
  const colon = info[0]?.indexOf(':') ?? -1;
  const password = colon === -1 ? undefined : info[0]!.slice(colon + 1);
  let decoded = password;
  try {
    decoded = password && decodeURIComponent(password);
  } catch {
    // Written with a stray %: only as written.
  }
  const query = /[?&]password=([^&#]*)/i.exec(url)?.[1];
  return [password, decoded, query].filter((s): s is string => s !== undefined && s !== '');
}

/** A PetstoreMockError (`PETSTORE_MOCK_STORE_FAILED`) naming the store by its hidden URL, never quoting a password. */
export function storeFailed(url: string, why: string): PetstoreMockError {
  const secrets = passwordsOf(url);
  const said = secrets.length === 0 ? why : redactKeys(why, secrets);
  return new PetstoreMockError('PETSTORE_MOCK_STORE_FAILED', `cannot use the store ${hidePassword(url)}: ${said}`);
}

/** A pet as a row holds it: its name as JSON text (a database's text keeps neither NUL nor a lone surrogate). */
export interface PetRow {
  id: number | string | bigint;
  name: string;
  category_id: number | string | bigint;
  status: string | null;
}

/** The pet's JSON text, as the memory store writes it ({@link petJson}), from a row whose name is JSON already. */
export function rowJson(row: PetRow): string {
  const head = ['{"id":', Number(row.id), ',"name":', row.name, ',"categoryId":', Number(row.category_id)];
  return (row.status === null ? [...head, '}'] : [...head, ',"status":"', row.status, '"}']).join('');
}

/** What a pet counts against the budget in a database: its JSON with the longest id (it is not known beforehand). */
export function rowBytes(input: NewPet): number {
  return petBytes(petJson(Number.MAX_SAFE_INTEGER, input));
}

/** The pets' columns, for a bulk insert; a StoreFullError when they take more than `budget`. */
export function columnsOf(pets: readonly Pet[], budget: number) {
  const ids: number[] = [];
  const names: string[] = [];
  const categories: number[] = [];
  const statuses: (string | null)[] = [];
  const bytes: number[] = [];
  let total = 0;
  let largest = 0;
  for (const pet of pets) {
    if (pet.id > largest) largest = pet.id;
    const size = rowBytes(pet);
    total += size;
    if (total > budget) throw new StoreFullError(total, budget);
    ids.push(pet.id);
    names.push(JSON.stringify(pet.name));
    categories.push(pet.categoryId);
    statuses.push(pet.status ?? null);
    bytes.push(size);
  }
  return { ids, names, categories, statuses, bytes, total, largest };
}

/** The message for a schema this mock cannot use, saying what to do. */
export function schemaRefusal(found: number | undefined): string {
  return found === undefined
    ? 'it holds petstore_ tables but no schema version: it was not made by this mock; use an empty database, or drop the petstore_ tables'
    : `its schema is version ${found}, newer than this mock's ${SCHEMA_VERSION}: upgrade petstore-toolkit, or use another database`;
}
