/**
 * The SQLite store (`sqlite:FILE`): one sandbox whose pets survive a restart.
 * Through better-sqlite3 (12 on Node 20; 13 needs Node 22), synchronous
 * underneath: each change is one IMMEDIATE transaction in WAL mode,
 * committed before the answer, so a create answered 201 is in the file even
 * if the process is killed the moment after (synchronous=NORMAL: a power cut
 * may lose the last commits; FULL cost each create an fsync, 156 req/s).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { NewPet, Pet, PetStatus } from '../../../spec/index.ts';
import { IdsExhaustedError, Listing, type PetStore, StoredPet, StoreFullError } from '../../core/store.ts';
import {
  bucketHash,
  columnsOf,
  type PetRow,
  RATE_WINDOWS_KEPT,
  rowBytes,
  rowJson,
  SCHEMA_VERSION,
  schemaRefusal,
  storeFailed,
} from './common.ts';

const PET_COLUMNS =
  'id INTEGER PRIMARY KEY, name TEXT NOT NULL, category_id INTEGER NOT NULL, status TEXT, bytes INTEGER NOT NULL';

/** The statements that bring a schema from version i to i + 1, in order. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE petstore_schema (version INTEGER NOT NULL);
   INSERT INTO petstore_schema (version) VALUES (0);
   CREATE TABLE petstore_pets (${PET_COLUMNS});
   CREATE INDEX petstore_pets_by_status ON petstore_pets (status, id);
   CREATE TABLE petstore_seed (${PET_COLUMNS});
   CREATE TABLE petstore_state (one INTEGER PRIMARY KEY CHECK (one = 1), next_id INTEGER NOT NULL, bytes INTEGER NOT NULL);`,
  // 2: the rate limit's buckets, counted across mocks.
  'CREATE TABLE petstore_rate (bucket TEXT NOT NULL, at_second INTEGER NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (bucket, at_second));',
];

/** Opens (creating when missing) the SQLite file `file`; a PetstoreMockError (`..._STORE_FAILED`) when it cannot. */
export async function openSqliteStore(file: string, budget: number): Promise<PetStore> {
  const where = `sqlite:${file}`;
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch {
    throw storeFailed(
      where,
      'the sqlite store needs better-sqlite3 12 (npm install better-sqlite3@12; on Node 22+ too)',
    );
  }
  let db: BetterSqlite3.Database;
  try {
    db = new Database(file, { timeout: 5_000 });
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives the process being killed (kill -9); a power cut may lose the last ones.
    db.pragma('synchronous = NORMAL');
    migrate(db, where);
  } catch (error) {
    throw error instanceof Error && error.name === 'PetstoreMockError'
      ? error
      : storeFailed(where, (error as Error).message);
  }
  return sqliteStore(db, where, budget);
}

function migrate(db: BetterSqlite3.Database, where: string): void {
  db.transaction(() => {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'petstore\\_%' ESCAPE '\\'")
      .pluck()
      .all() as string[];
    let version = 0;
    if (tables.includes('petstore_schema'))
      version = db.prepare('SELECT version FROM petstore_schema').pluck().get() as number;
    else if (tables.length > 0) throw storeFailed(where, schemaRefusal(undefined));
    if (version > SCHEMA_VERSION) throw storeFailed(where, schemaRefusal(version));
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.prepare('UPDATE petstore_schema SET version = ?').run(SCHEMA_VERSION);
  }).immediate();
}

/** The store's prepared statements, compiled once when it opens. */
function statementsOf(db: BetterSqlite3.Database) {
  const select = 'SELECT id, name, category_id, status FROM petstore_pets';
  return {
    byId: db.prepare(`${select} WHERE id = ?`),
    first: db.prepare(`${select} ORDER BY id LIMIT ?`),
    firstWith: db.prepare(`${select} WHERE status = ? ORDER BY id LIMIT ?`),
    every: db.prepare(`${select} ORDER BY id`),
    state: db.prepare('SELECT next_id, bytes FROM petstore_state'),
    insert: db.prepare('INSERT INTO petstore_pets (id, name, category_id, status, bytes) VALUES (?, ?, ?, ?, ?)'),
    bump: db.prepare('UPDATE petstore_state SET next_id = next_id + 1, bytes = bytes + ?'),
    hit: db
      .prepare(
        'INSERT INTO petstore_rate (bucket, at_second, used) VALUES (?, ?, 1) ON CONFLICT (bucket, at_second) DO UPDATE SET used = used + 1 RETURNING used',
      )
      .pluck(),
    forget: db.prepare('DELETE FROM petstore_rate WHERE at_second < ?'),
    counted: db.prepare('SELECT count(*) FROM petstore_pets').pluck(),
  };
}

type Statements = ReturnType<typeof statementsOf>;

const toJson = (rows: unknown[]) => `[${(rows as PetRow[]).map(rowJson).join(',')}]`;

/** Holds exactly `pets`, in the open transaction; with `seed`, they become what reset returns to. */
function hold(db: BetterSqlite3.Database, q: Statements, pets: readonly Pet[], seed: boolean, budget: number): void {
  const c = columnsOf(pets, budget);
  db.exec(seed ? 'DELETE FROM petstore_pets; DELETE FROM petstore_seed' : 'DELETE FROM petstore_pets');
  for (let i = 0; i < c.ids.length; i++) q.insert.run(c.ids[i], c.names[i], c.categories[i], c.statuses[i], c.bytes[i]);
  if (seed) db.exec('INSERT INTO petstore_seed SELECT * FROM petstore_pets');
  db.prepare('INSERT OR REPLACE INTO petstore_state (one, next_id, bytes) VALUES (1, ?, ?)').run(
    c.largest + 1,
    c.total,
  );
}

/** The create, as one transaction: the next id, unless ids or the byte budget have run out. */
function addTransaction(db: BetterSqlite3.Database, q: Statements, budget: number) {
  return db.transaction((input: NewPet): StoredPet => {
    const s = q.state.get() as { next_id: number; bytes: number };
    if (!Number.isSafeInteger(s.next_id)) throw new IdsExhaustedError();
    const size = rowBytes(input);
    if (s.bytes + size > budget) throw new StoreFullError(s.bytes + size, budget);
    const row = {
      id: s.next_id,
      name: JSON.stringify(input.name),
      category_id: input.categoryId,
      status: input.status ?? null,
    };
    q.insert.run(row.id, row.name, row.category_id, row.status, size);
    q.bump.run(size);
    return new StoredPet(s.next_id, rowJson(row));
  });
}

/** The pets back to the seed's, and the next id and the bytes with them, in the open transaction. */
function restoreSeed(db: BetterSqlite3.Database): void {
  db.exec('DELETE FROM petstore_pets; INSERT INTO petstore_pets SELECT * FROM petstore_seed');
  db.exec(`UPDATE petstore_state SET next_id = coalesce((SELECT max(id) FROM petstore_seed), 0) + 1,
             bytes = coalesce((SELECT sum(bytes) FROM petstore_seed), 0)`);
}

/** `run`'s result, or its throw, as a settled promise: SQLite answers within the same turn. */
function settled<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

function sqliteStore(db: BetterSqlite3.Database, where: string, budget: number): PetStore {
  // The number of pets as this process last saw it: other mocks on the database change it too.
  let size = 0;
  let lastWindow = 0;
  const q = statementsOf(db);
  const add = addTransaction(db, q, budget);
  const countPets = () => q.counted.get() as number;
  return {
    where,
    get size() {
      return size;
    },
    async open(seedPets: () => readonly Pet[] | Promise<readonly Pet[]>) {
      if (q.state.get() === undefined) {
        const pets = await seedPets();
        db.transaction(() => {
          if (q.state.get() === undefined) hold(db, q, pets, true, budget);
        }).immediate();
      }
      size = countPets();
      return size;
    },
    add: (input: NewPet) =>
      settled(() => {
        const stored = add.immediate(input);
        size++;
        return stored;
      }),
    getJson: (id: number) =>
      settled(() => {
        const row = q.byId.get(id) as PetRow | undefined;
        return row && rowJson(row);
      }),
    listing: (limit: number, status?: PetStatus) =>
      settled(() => new Listing(toJson(status === undefined ? q.first.all(limit) : q.firstWith.all(status, limit)))),
    allJson: () => settled(() => toJson(q.every.all())),
    reset: () =>
      settled(() =>
        db
          .transaction(() => {
            restoreSeed(db);
            size = countPets();
          })
          .immediate(),
      ),
    replace: (pets: readonly Pet[]) =>
      settled(() => {
        db.transaction(() => hold(db, q, pets, false, budget)).immediate();
        size = pets.length;
      }),
    countRequest: (bucket: string, window: number) =>
      settled(() => {
        if (window !== lastWindow) q.forget.run((lastWindow = window) - RATE_WINDOWS_KEPT);
        return q.hit.get(bucketHash(bucket), window) as number;
      }),
    close: () => settled(() => void db.close()),
  };
}
