/**
 * The `petstore-mock` command as a function (`npm start`): the mock on
 * http://127.0.0.1:4010/v1 with seeded pets, until SIGINT or SIGTERM. Flags win
 * over PETSTORE_* environment variables, which win over defaults. `cli.ts` is
 * the entry that calls it.
 */
import { parseArgs } from 'node:util';
import { packageVersion } from '../../spec/files.ts';
import type { Pet } from '../../spec/index.ts';
import {
  DEFAULT_API_KEY,
  DEFAULT_COUNT,
  DEFAULT_SEED,
  loadPetsFile,
  MAX_COUNT,
  type RequestLogEntry,
  startMockServer,
} from './index.ts';

const HELP = `Usage: npm start -- [options]      (or: petstore-mock [options])

Serves the Petstore interface from memory at http://HOST:PORT/v1, seeded with faker data.

Options (environment variable in brackets):
  --port N          port to listen on; 0 picks a free one   [PETSTORE_PORT]      default 4010
  --host H          interface to bind                        [PETSTORE_HOST]      default 127.0.0.1
  --seed N          faker seed: same seed, same pets         [PETSTORE_SEED]      default ${DEFAULT_SEED}
  --count N         pets to seed, 0 to ${MAX_COUNT}             [PETSTORE_COUNT]     default ${DEFAULT_COUNT}
  --api-key KEY     accepted bearer key; repeat for more     [PETSTORE_API_KEYS, comma-separated]
                    (replaces the development key "${DEFAULT_API_KEY}")
  --fixtures FILE   start from a JSON array of pets instead  [PETSTORE_FIXTURES]
  --no-cors         no CORS headers or preflight answers     [PETSTORE_CORS=off]
  --quiet           no request log on stderr                 [PETSTORE_QUIET=1]
  -h, --help        show this text
  --version         print the version

Control endpoints (no key needed): POST /__control/reset, GET /__control/pets, GET /__control/health.`;

class UsageError extends Error {}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return value;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      count: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      fixtures: { type: 'string' },
      'no-cors': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  });
  const envKeys = env.PETSTORE_API_KEYS?.split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  // An empty variable (`PETSTORE_API_KEYS=` in a compose file) means unset: the banner must then show the development key in use.
  const apiKeys = values['api-key'] ?? (envKeys?.length ? envKeys : undefined);
  if (apiKeys?.some((k) => k.trim() === '' || /\s/.test(k)))
    throw new UsageError('--api-key must be a non-empty key without spaces');
  return {
    help: values.help === true,
    version: values.version === true,
    port: integer('port', values.port ?? (env.PETSTORE_PORT || undefined), 4010, 0, 65535),
    // Empty means unset, not every interface (which is what node does with an empty host).
    host: values.host || env.PETSTORE_HOST || '127.0.0.1',
    seed: integer('seed', values.seed ?? (env.PETSTORE_SEED || undefined), DEFAULT_SEED, -(2 ** 31), 2 ** 32),
    count: integer('count', values.count ?? (env.PETSTORE_COUNT || undefined), DEFAULT_COUNT, 0, MAX_COUNT),
    fixtures: values.fixtures ?? env.PETSTORE_FIXTURES,
    apiKeys,
    cors: values['no-cors'] !== true && env.PETSTORE_CORS !== 'off',
    quiet: values.quiet === true || env.PETSTORE_QUIET === '1',
  };
}

function logLine(entry: RequestLogEntry): void {
  process.stderr.write(`${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)}ms\n`);
}

/**
 * Runs the command: resolves with the exit code once it has finished (help, a
 * usage error), or once the server it started has stopped on SIGINT or SIGTERM.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv, env);
  } catch (error) {
    process.stderr.write(`petstore-mock: ${(error as Error).message}\nTry --help.\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  let pets: Pet[] | undefined;
  try {
    pets = options.fixtures === undefined ? undefined : loadPetsFile(options.fixtures);
  } catch (error) {
    process.stderr.write(`petstore-mock: ${(error as Error).message}\n`);
    return 2;
  }
  const onWarning = (message: string) => process.stderr.write(`warning: ${message}.\n`);
  const mock = await startMockServer({ ...options, pets, onWarning, log: options.quiet ? undefined : logLine }).catch(
    (error: Error) => {
      process.stderr.write(`petstore-mock: cannot listen on ${options.host}:${options.port}: ${error.message}\n`);
      return undefined;
    },
  );
  if (!mock) return 2;
  const source = options.fixtures === undefined ? `seed ${options.seed}` : options.fixtures;
  const key = options.apiKeys ? '(the key you configured; not printed)' : DEFAULT_API_KEY;
  const shown = options.apiKeys ? '<API_KEY>' : DEFAULT_API_KEY;
  process.stdout.write(
    `Petstore mock serving ${mock.store.size} pets (${source}) at ${mock.url}\n` +
      `API key: ${key}\n` +
      `Try:     curl -H "Authorization: Bearer ${shown}" ${mock.url}/pets?limit=5\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await mock.close();
  return 0;
}
