/**
 * A throwaway PostgreSQL cluster for tests: Debian's packages (installed by
 * .ci/run when missing), initialised in a temporary folder, listening on a
 * free 127.0.0.1 port with password (SCRAM) authentication, removed at the
 * end. initdb refuses root, so as root the cluster runs as the `postgres`
 * user. Each test takes a database of its own ({@link Postgres.createDatabase}).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The superuser's password in every test cluster. */
export const POSTGRES_PASSWORD = 'pg-test-secret-Zq81';

/** A running test cluster. */
export interface Postgres {
  readonly port: number;
  /** A URL for `database` as the superuser, password included. */
  url(database?: string): string;
  /** Makes a new empty database; resolves with its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut). */
  stop(): Promise<void>;
  /** Starts it again after {@link Postgres.stop}, on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** The folder of Debian's PostgreSQL programs (the newest version installed). */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql; .ci/run does it)');
  return bin;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let databases = 0;

/** Creates and starts a cluster; call close() when done. */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, program),
      asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args,
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      },
    );
  const pwfile = join(dir, 'password');
  writeFileSync(pwfile, POSTGRES_PASSWORD);
  if (asRoot) chownSync(pwfile, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const data = join(dir, 'data');
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  // fsync off: a throwaway cluster on a shared machine. The tests kill the mock, not the database, and stop the
  // database cleanly, so what they check does not rest on it.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = async () =>
    void run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', options, 'start']);
  const stop = async () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  const url = (database = 'postgres') =>
    `postgres://postgres:${encodeURIComponent(POSTGRES_PASSWORD)}@127.0.0.1:${port}/${database}`;
  let running = true;
  return {
    port,
    url,
    async createDatabase() {
      const name = `petstore_test_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop: async () => {
      await stop();
      running = false;
    },
    start: async () => {
      await start();
      running = true;
    },
    async close() {
      if (running) await stop().catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The control key a mock on a PostgreSQL store needs (its controls act on a store other mocks share). */
export const CONTROL_KEY = 'control-key-for-the-store-tests';
