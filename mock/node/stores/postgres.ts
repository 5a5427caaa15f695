/**
 * The PostgreSQL store (`postgres://…`), through `pg`: several mocks share
 * one set of pets. Ids and the byte budget live in one state row that each
 * create moves in the same statement as its insert, so two instances never
 * give out one id; every change is committed before its answer. A database
 * that goes away fails calls within seconds (a 503 to the client), and the
 * pool reconnects when it is back.
 */
import type { Pool, PoolClient } from 'pg';
import type { NewPet, Pet, PetStatus } from '../../../spec/index.ts';
import { IdsExhaustedError, Listing, type PetStore, StoredPet, StoreFullError } from '../../core/store.ts';
import {
  bucketHash,
  columnsOf,
  hidePassword,
  type PetRow,
  RATE_WINDOWS_KEPT,
  rowBytes,
  rowJson,
  SCHEMA_VERSION,
  schemaRefusal,
  storeFailed,
} from './common.ts';

const PET_COLUMNS =
  'id bigint PRIMARY KEY, name text NOT NULL, category_id bigint NOT NULL, status text, bytes integer NOT NULL';

/** The statements that bring a schema from version i to i + 1, in order. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE petstore_schema (version integer NOT NULL);
   INSERT INTO petstore_schema (version) VALUES (0);
   CREATE TABLE petstore_pets (${PET_COLUMNS});
   CREATE INDEX petstore_pets_by_status ON petstore_pets (status, id);
   CREATE TABLE petstore_seed (${PET_COLUMNS});
   CREATE TABLE petstore_state (one boolean PRIMARY KEY DEFAULT true CHECK (one), next_id bigint NOT NULL, bytes bigint NOT NULL);`,
  // 2: the rate limit's buckets, counted across mocks (unlogged: a count of one second need not survive a crash).
  'CREATE UNLOGGED TABLE petstore_rate (bucket text NOT NULL, at_second bigint NOT NULL, used integer NOT NULL, PRIMARY KEY (bucket, at_second));',
];

/** Any constant: the advisory lock two instances starting at once take to create the schema and seed once. */
const SETUP_LOCK = 4_011_040;
const BATCH = 10_000;
const SELECT = 'SELECT id, name, category_id, status FROM petstore_pets';
const ADD = `WITH s AS (
    UPDATE petstore_state SET next_id = next_id + 1, bytes = bytes + $4
    WHERE next_id <= ${Number.MAX_SAFE_INTEGER} AND bytes + $4 <= $5
    RETURNING next_id - 1 AS id)
  INSERT INTO petstore_pets (id, name, category_id, status, bytes) SELECT id, $1, $2, $3, $4 FROM s RETURNING id`;

const HIT = `INSERT INTO petstore_rate (bucket, at_second, used) VALUES ($1, $2, 1)
  ON CONFLICT (bucket, at_second) DO UPDATE SET used = petstore_rate.used + 1 RETURNING used`;

/** Connects to `url`, creating or migrating the schema; a PetstoreMockError (`..._STORE_FAILED`) when it cannot. */
export async function openPostgresStore(url: string, budget: number): Promise<PetStore> {
  let PgPool: typeof Pool;
  try {
    PgPool = (await import('pg')).default.Pool;
  } catch {
    throw storeFailed(url, 'the postgres store needs pg (npm install pg)');
  }
  const pool = new PgPool({
    connectionString: url,
    max: 8,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 10_000,
    query_timeout: 10_000,
    statement_timeout: 10_000,
  });
  // An idle connection the server dropped: the next query makes a new one. Without a listener it would end the process.
  pool.on('error', () => {});
  try {
    await inTransaction(pool, (client) => migrate(client, url));
  } catch (error) {
    await pool.end().catch(() => {});
    if ((error as Error).name === 'PetstoreMockError') throw error;
    throw storeFailed(url, describe(error));
  }
  return postgresStore(pool, hidePassword(url), budget);
}

/** What went wrong, in one line: the server's or the socket's code and message (the caller hides the password). */
function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const hint = e.code === '28P01' || e.code === '28000' ? ' (the credentials were refused)' : '';
  const text = `${e.message ?? String(error)}`.split('\n')[0]!;
  return `${e.code ? `${e.code}: ` : ''}${text || 'no answer'}${hint}`;
}

async function inTransaction<T>(pool: Pool, run: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function migrate(client: PoolClient, url: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'petstore\\_%'",
  );
  const tables = rows.map((r) => r.name);
  let version = 0;
  if (tables.includes('petstore_schema'))
    version = (await client.query<{ version: number }>('SELECT version FROM petstore_schema')).rows[0]?.version ?? 0;
  else if (tables.length > 0) throw storeFailed(url, schemaRefusal(undefined));
  if (version > SCHEMA_VERSION) throw storeFailed(url, schemaRefusal(version));
  for (let v = version; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v]!);
  await client.query('UPDATE petstore_schema SET version = $1', [SCHEMA_VERSION]);
}

function postgresStore(pool: Pool, where: string, budget: number): PetStore {
  // The number of pets as this process last saw it: other mocks on the database change it too.
  let size = 0;
  let lastWindow = 0;
  const toJson = (rows: PetRow[]) => `[${rows.map(rowJson).join(',')}]`;
  const count = async () => Number((await pool.query('SELECT count(*) AS n FROM petstore_pets')).rows[0].n);

  /** Holds exactly `pets`, in `client`'s transaction; with `seed`, they become what reset returns to. */
  async function hold(client: PoolClient, pets: readonly Pet[], seed: boolean): Promise<void> {
    const c = columnsOf(pets, budget);
    await client.query('SELECT 1 FROM petstore_state FOR UPDATE');
    await client.query(seed ? 'DELETE FROM petstore_pets; DELETE FROM petstore_seed' : 'DELETE FROM petstore_pets');
    for (let at = 0; at < c.ids.length; at += BATCH) {
      const part = <T>(list: T[]) => list.slice(at, at + BATCH);
      await client.query(
        'INSERT INTO petstore_pets SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::integer[])',
        [part(c.ids), part(c.names), part(c.categories), part(c.statuses), part(c.bytes)],
      );
    }
    if (seed) await client.query('INSERT INTO petstore_seed SELECT * FROM petstore_pets');
    await client.query(
      'INSERT INTO petstore_state (one, next_id, bytes) VALUES (true, $1, $2) ON CONFLICT (one) DO UPDATE SET next_id = $1, bytes = $2',
      [c.largest + 1, c.total],
    );
  }

  return {
    where,
    get size() {
      return size;
    },
    async open(seedPets: () => Pet[] | Promise<readonly Pet[]> | readonly Pet[]) {
      const seeded = async () => (await pool.query('SELECT 1 FROM petstore_state')).rowCount !== 0;
      if (!(await seeded())) {
        const pets = await seedPets();
        await inTransaction(pool, async (client) => {
          await client.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
          if ((await client.query('SELECT 1 FROM petstore_state')).rowCount === 0) await hold(client, pets, true);
        });
      }
      size = await count();
      return size;
    },
    async add(input: NewPet) {
      const bytes = rowBytes(input);
      const name = JSON.stringify(input.name);
      const status = input.status ?? null;
      const { rows } = await pool.query<{ id: string }>(ADD, [name, input.categoryId, status, bytes, budget]);
      if (rows.length === 0) {
        const s = (await pool.query('SELECT next_id, bytes FROM petstore_state')).rows[0];
        if (Number(s.next_id) > Number.MAX_SAFE_INTEGER) throw new IdsExhaustedError();
        throw new StoreFullError(Number(s.bytes) + bytes, budget);
      }
      const id = Number(rows[0]!.id);
      size++;
      return new StoredPet(id, rowJson({ id, name, category_id: input.categoryId, status }));
    },
    async getJson(id: number) {
      const { rows } = await pool.query<PetRow>(`${SELECT} WHERE id = $1`, [id]);
      return rows[0] && rowJson(rows[0]);
    },
    async listing(limit: number, status?: PetStatus) {
      const { rows } =
        status === undefined
          ? await pool.query<PetRow>(`${SELECT} ORDER BY id LIMIT $1`, [limit])
          : await pool.query<PetRow>(`${SELECT} WHERE status = $2 ORDER BY id LIMIT $1`, [limit, status]);
      return new Listing(toJson(rows));
    },
    allJson: async () => toJson((await pool.query<PetRow>(`${SELECT} ORDER BY id`)).rows),
    reset: () =>
      inTransaction(pool, async (client) => {
        await client.query('SELECT 1 FROM petstore_state FOR UPDATE');
        await client.query('DELETE FROM petstore_pets');
        await client.query('INSERT INTO petstore_pets SELECT * FROM petstore_seed');
        await client.query(`UPDATE petstore_state SET next_id = coalesce((SELECT max(id) FROM petstore_seed), 0) + 1,
                              bytes = coalesce((SELECT sum(bytes) FROM petstore_seed), 0)`);
        size = Number((await client.query('SELECT count(*) AS n FROM petstore_pets')).rows[0].n);
      }),
    replace: async (pets: readonly Pet[]) => {
      await inTransaction(pool, (client) => hold(client, pets, false));
      size = pets.length;
    },
    async countRequest(bucket: string, window: number) {
      if (window !== lastWindow) {
        lastWindow = window;
        // Now and then, not per request: old windows no longer count. A failure here is the next request's to see.
        pool.query('DELETE FROM petstore_rate WHERE at_second < $1', [window - RATE_WINDOWS_KEPT]).catch(() => {});
      }
      const { rows } = await pool.query<{ used: number }>(HIT, [bucketHash(bucket), window]);
      return rows[0]!.used;
    },
    close: () => pool.end(),
  };
}
