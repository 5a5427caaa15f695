/**
 * The `petstore-mock` command as a function: the mock on
 * http://127.0.0.1:4010/v1 with seeded pets, until SIGINT or SIGTERM. Flags win
 * over PETSTORE_* environment variables, which win over defaults. `cli.ts` is
 * the entry that calls it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { packageVersion } from '../../spec/files.ts';
import type { Pet } from '../../spec/index.ts';
import type { CoverageReport } from '../core/coverage.ts';
import { formatCoverage } from '../core/coverage-report.ts';
// Each from its own module, not from index.ts, whose seedPets would load faker for every start.
import { DEFAULT_COUNT, DEFAULT_SEED, MAX_COUNT } from '../core/default-pets.ts';
import { badOption, PetstoreMockError } from '../core/errors.ts';
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_BYTES, MAX_JOURNAL_SIZE } from '../core/journal.ts';
import { DEFAULT_API_KEY } from '../core/mock.ts';
import { type Latency, parseLatency } from '../core/options.ts';
import { checkPactOptions, type PactFile, type PactOptions } from '../core/pact/document.ts';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, MAX_SESSIONS } from '../core/sessions.ts';
import { DEFAULT_STORE_BYTES } from '../core/store.ts';
import { renderCoverageHtml } from './coverage-html.ts';
import { coverageGateFailures } from './enforce-coverage.ts';
import { loadPetsFile } from './fixtures.ts';
import type { RequestLogEntry } from './server.ts';
import { isLoopback, startMockServer } from './start.ts';
import { hidePassword } from './stores/common.ts';

const HELP = `Usage: npx petstore-mock [options]
       (outside a project with petstore-toolkit installed: npx --yes -p petstore-toolkit@0 petstore-mock [options])

Serves the Petstore interface at http://HOST:PORT/v1, from memory (or a database, --store), seeded with faker data.

Options (environment variable in brackets):
  --port N          port to listen on; 0 picks a free one   [PETSTORE_PORT]      default 4010
  --host H          interface to bind                        [PETSTORE_HOST]      default 127.0.0.1
  --seed N          faker seed: same seed, same pets         [PETSTORE_SEED]      default ${DEFAULT_SEED}
  --count N         pets to seed, 0 to ${MAX_COUNT}             [PETSTORE_COUNT]     default ${DEFAULT_COUNT}
  --api-key KEY     accepted bearer key; repeat for more     [PETSTORE_API_KEYS, comma-separated]
                    (replaces the development key "${DEFAULT_API_KEY}")
  --api-keys-file F the accepted keys, one per line (beyond loopback, keys come from
                    here or the environment: the command line shows in ps)
  --control-key-file F  the key the control endpoints (/__control) require, as
                    Authorization: Bearer <key>, distinct from the API keys  [PETSTORE_CONTROL_KEY]
                    (required with a --host beyond loopback; at least 16 characters)
  --control-key KEY the same, on the command line (loopback only: ps shows it)
  --fixtures FILE   start from a JSON array of pets instead  [PETSTORE_FIXTURES]
  --pets-from URL   start from the pets another Petstore lists (GET only; its key in
                    PETSTORE_SOURCE_API_KEY); not with --seed, --count or --fixtures
  --base-path PATH  serve the API at PATH, ending in /v1;     [PETSTORE_BASE_PATH] default /v1
                    the controls beside it (/api/__control)
  --no-cors         no CORS headers or preflight answers     [PETSTORE_CORS=off]
  --cors-origin O   grant CORS to origin O (http://host:port) [PETSTORE_CORS_ORIGINS, comma-separated]
                    for the API and the control endpoints; repeat for more, * for any
                    (default: loopback origins, API only)
  --allowed-hosts H answer Host names H too (comma-separated; [PETSTORE_ALLOWED_HOSTS]
                    .example.com takes subdomains, * any); default: localhost, *.localhost, IP addresses
  --quiet           no request log on stderr                 [PETSTORE_QUIET=1]
  --as-of DATE      serve the interface as it stands on DATE [PETSTORE_AS_OF]
                    (2030-12-05 on: getPet is removed, answering 404)
  --coverage FILE   on stop, write what clients exercised of the contract as JSON,
                    and print it as a table on stderr            [PETSTORE_COVERAGE]
  --coverage-html FILE   the same as a page
  --coverage-require LIST  exit 1 on stop when one of these responses was never received
                    (comma-separated, like 'getPet 404,createPet 400')
  --pact FILE       on stop, write the clients' consumer contract, a Pact V4 file  [PETSTORE_PACT]
  --pact-consumer NAME, --pact-provider NAME   its names   default petstore-client, petstore
  --pact-include LIST  add answers forced by scenario,prefer,chaos,rateLimit (comma-separated)
  --pact-paths openapi  write paths below /v1, as the OpenAPI document's (for PactFlow); default: as sent
  --fail-on-invalid-requests  exit 1 on stop when a client sent a request the contract
                    refuses that no test forced (each kind named on stderr)
  --latency MS      delay every API answer: MS, or MIN-MAX   [PETSTORE_LATENCY]   default none
                    drawn from the seed (at most 60000)
  --rate-limit N    API requests per second per key; beyond  [PETSTORE_RATE_LIMIT] default none
                    it 429 with Retry-After and RateLimit headers
  --chaos RATE      share of API requests (0 to 1) failing   [PETSTORE_CHAOS]     default 0
                    with a seeded 429, 500, 502, 503 or 504
  --journal-size N  API requests the journal keeps, 0 to     [PETSTORE_JOURNAL_SIZE] default ${DEFAULT_JOURNAL_SIZE}
                    ${MAX_JOURNAL_SIZE} (0: no journal)
  --journal-bytes N bytes the journal keeps (bodies cut at     [PETSTORE_JOURNAL_BYTES] default ${DEFAULT_JOURNAL_BYTES}
                    64 KiB), oldest dropped first; 0 to ${MAX_JOURNAL_BYTES}
  --store URL       where the pets live: memory, sqlite:FILE   [PETSTORE_STORE]     default memory
                    (survives restarts), postgres://USER:PASSWORD@HOST:PORT/DB (shared by
                    several mocks); an empty store is seeded, one holding pets served as it is
  --store-bytes N   bytes the pets may take (their JSON, plus  [PETSTORE_STORE_BYTES] default ${DEFAULT_STORE_BYTES}
                    48 each; ${DEFAULT_STORE_BYTES / 2 ** 20} MiB); a create beyond it is a 507 store_full
  --max-sessions N  live sessions at most, 1 to ${MAX_SESSIONS}; each  [PETSTORE_MAX_SESSIONS] default ${DEFAULT_MAX_SESSIONS}
                    may hold store-bytes / N of pets
  --session-idle S  end a session after S seconds with no     [PETSTORE_SESSION_IDLE] default ${DEFAULT_SESSION_IDLE_MS / 1000}
                    request (0: never)
  -h, --help        show this text
  --version         print the version

Per request, the Prefer header (RFC 7240): code=NNN (a documented error, or 429, 500,
502, 503, 504), delay=MS, fault=reset|close|truncated|malformed|hang; combine them
with commas (Prefer: code=503, delay=2000). Unknown preferences are ignored.

Control endpoints (no key needed), each also a method of startMockServer's result:
  POST /__control/reset                 seeded pets again, no scenarios, empty journal
  GET, PUT /__control/pets              the whole state; PUT replaces it (a JSON array of Pets)
  GET, POST, DELETE /__control/scenarios, DELETE /__control/scenarios/{id}
                                        canned answers: {method?, path?, times?, status?, delayMs?, fault?}
  GET, DELETE /__control/requests       the request journal (?method=POST&path=/v1/pets/{petId})
  GET, DELETE /__control/pact           the consumer contract (?consumer=web&provider=petstore)
  POST /__control/provider-states       Pact's state change: {state, params, action}
  GET /__control/openapi.json           the mock's OpenAPI profile
  GET, POST /__control/sessions, DELETE /__control/sessions/{name}
                                        sessions: a mock of their own each, at /sessions/{name}/v1
                                        or with the Petstore-Session header; POST answers {name, url}
  GET /__control/health
Details: docs/mock.md.`;

/** The flag of each option the library names in its errors: the command prints `--cors-origin`, not `corsOrigins`. */
const FLAGS: Record<string, string> = {
  port: 'port',
  host: 'host',
  seed: 'seed',
  count: 'count',
  apiKeys: 'api-key',
  fixtures: 'fixtures',
  petsFrom: 'pets-from',
  'petsFrom.url': 'pets-from',
  basePath: 'base-path',
  corsOrigins: 'cors-origin',
  allowedHosts: 'allowed-hosts',
  latency: 'latency',
  rateLimit: 'rate-limit',
  chaos: 'chaos',
  journalSize: 'journal-size',
  journalBytes: 'journal-bytes',
  storeBytes: 'store-bytes',
  'sessions.max': 'max-sessions',
  'sessions.idleMs': 'session-idle',
  store: 'store',
  asOf: 'as-of',
  coverageRequire: 'coverage-require',
  consumer: 'pact-consumer',
  provider: 'pact-provider',
  include: 'pact-include',
  paths: 'pact-paths',
  controlKey: 'control-key-file',
};

/** An error as the command prints it: a bad option under its flag's name, anything else as it is. */
function told(error: Error): string {
  if (!(error instanceof PetstoreMockError) || error.option === undefined || error.problem === undefined)
    return error.message;
  const flag = FLAGS[error.option];
  if (flag === undefined) return error.message;
  const sep = error.problem.startsWith(':') ? '' : ' ';
  return `--${flag}${sep}${error.problem}`;
}

/** A whole number as the library takes it; its range is the library's to check. Text that is not one is refused here. */
function integer(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?[0-9]+$/.test(raw.trim())) throw badOption(option, `must be an integer, got ${JSON.stringify(raw)}`);
  // Text a double cannot hold exactly would reach the library as another number: refuse it as written.
  if (!Number.isSafeInteger(Number(raw)))
    throw badOption(option, `must be an integer from -(2^53 - 1) to 2^53 - 1, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** A command-line mistake the library has no option for: printed as it is. */
class UsageError extends Error {}

/** The keys in a file, one per line (blank lines and surrounding spaces ignored); a file with none is refused. */
function keysFile(flag: string, path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const keys = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (keys.length === 0) throw new UsageError(`--${flag}: ${path} holds no key (one per line)`);
  return keys;
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
      'api-keys-file': { type: 'string' },
      'control-key': { type: 'string' },
      'control-key-file': { type: 'string' },
      fixtures: { type: 'string' },
      'pets-from': { type: 'string' },
      'base-path': { type: 'string' },
      'no-cors': { type: 'boolean' },
      'cors-origin': { type: 'string', multiple: true },
      'allowed-hosts': { type: 'string', multiple: true },
      latency: { type: 'string' },
      'rate-limit': { type: 'string' },
      chaos: { type: 'string' },
      'journal-size': { type: 'string' },
      'journal-bytes': { type: 'string' },
      'store-bytes': { type: 'string' },
      'max-sessions': { type: 'string' },
      'session-idle': { type: 'string' },
      store: { type: 'string' },
      quiet: { type: 'boolean' },
      'as-of': { type: 'string' },
      coverage: { type: 'string' },
      'coverage-html': { type: 'string' },
      'coverage-require': { type: 'string', multiple: true },
      pact: { type: 'string' },
      'pact-consumer': { type: 'string' },
      'pact-provider': { type: 'string' },
      'pact-include': { type: 'string' },
      'pact-paths': { type: 'string' },
      'fail-on-invalid-requests': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  });
  const envKeys = env.PETSTORE_API_KEYS?.split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const host = values.host || env.PETSTORE_HOST || '127.0.0.1';
  // Beyond loopback the mock is a sandbox others reach: a key on the command line shows in `ps` to every local user.
  if (!isLoopback(host))
    for (const [flag, where] of [
      ['api-key', 'PETSTORE_API_KEYS or --api-keys-file'],
      ['control-key', 'PETSTORE_CONTROL_KEY or --control-key-file'],
    ] as const)
      if (values[flag] !== undefined)
        throw new UsageError(
          `--${flag} shows in ps on a mock that listens on ${host}, beyond loopback: give it in ${where}`,
        );
  const fileKeys =
    values['api-keys-file'] === undefined ? undefined : keysFile('api-keys-file', values['api-keys-file']);
  // An empty variable (`PETSTORE_API_KEYS=` in a compose file) means unset: the banner must then show the development key in use.
  const apiKeys = values['api-key'] ?? fileKeys ?? (envKeys?.length ? envKeys : undefined);
  const controlKey =
    values['control-key'] ??
    (values['control-key-file'] === undefined
      ? env.PETSTORE_CONTROL_KEY || undefined
      : keysFile('control-key-file', values['control-key-file'])[0]);
  return {
    help: values.help === true,
    version: values.version === true,
    port: integer('port', values.port ?? (env.PETSTORE_PORT || undefined), 4010),
    // Empty means unset, not every interface (which is what node does with an empty host).
    host,
    seed: integer('seed', values.seed ?? (env.PETSTORE_SEED || undefined), DEFAULT_SEED),
    count: integer('count', values.count ?? (env.PETSTORE_COUNT || undefined), DEFAULT_COUNT),
    fixtures: values.fixtures ?? env.PETSTORE_FIXTURES,
    petsFrom: petsFrom(values, env),
    basePath: values['base-path'] ?? (env.PETSTORE_BASE_PATH || undefined),
    store: values.store ?? (env.PETSTORE_STORE || undefined),
    apiKeys,
    ...(controlKey === undefined ? {} : { controlKey }),
    cors: values['no-cors'] !== true && env.PETSTORE_CORS !== 'off',
    ...browserAccess(values, env),
    quiet: values.quiet === true || env.PETSTORE_QUIET === '1',
    asOf: values['as-of'] ?? (env.PETSTORE_AS_OF || undefined),
    coverage: {
      json: values.coverage ?? (env.PETSTORE_COVERAGE || undefined),
      html: values['coverage-html'],
      require: (values['coverage-require'] ?? [])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
      failOnInvalidRequests: values['fail-on-invalid-requests'] === true,
    },
    pact: pactOption(values, env),
    ...behaviour(values, env),
  };
}

/** --pact FILE and its names, checked now: a bad name is told at start, not lost at stop. */
function pactOption(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): { file: string; options: PactOptions } | undefined {
  const file = (values.pact as string | undefined) ?? (env.PETSTORE_PACT || undefined);
  if (file === undefined) return undefined;
  const include = ((values['pact-include'] as string | undefined) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const options = checkPactOptions({
    consumer: (values['pact-consumer'] as string | undefined) ?? 'petstore-client',
    provider: (values['pact-provider'] as string | undefined) ?? 'petstore',
    include,
    ...(values['pact-paths'] === undefined ? {} : { paths: values['pact-paths'] }),
  } as PactOptions);
  return { file, options };
}

/** --pets-from: the source and its key (from PETSTORE_SOURCE_API_KEY only: a flag would show in `ps`); alone, or refused. */
function petsFrom(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): { url: string; apiKey?: string } | undefined {
  const url = values['pets-from'] as string | undefined;
  if (url === undefined) return undefined;
  const clash = ['seed', 'count', 'fixtures'].filter((name) => values[name] !== undefined);
  if (env.PETSTORE_FIXTURES) clash.push('PETSTORE_FIXTURES');
  if (clash.length > 0)
    throw badOption('petsFrom', `cannot go with ${clash.map((c) => (c.startsWith('P') ? c : `--${c}`)).join(', ')}`);
  const apiKey = env.PETSTORE_SOURCE_API_KEY || undefined;
  return apiKey ? { url, apiKey } : { url };
}

/** --latency, --rate-limit, --chaos and --journal-size, each with its PETSTORE_* variable. */
function behaviour(values: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  const pick = (flag: string, variable: string) => (values[flag] as string | undefined) ?? (env[variable] || undefined);
  const latencyText = pick('latency', 'PETSTORE_LATENCY');
  const latency: Latency | undefined = latencyText === undefined ? undefined : parseLatency(latencyText);
  const rateText = pick('rate-limit', 'PETSTORE_RATE_LIMIT');
  const chaosText = pick('chaos', 'PETSTORE_CHAOS');
  const chaos = chaosText === undefined || chaosText.trim() === '' ? undefined : Number(chaosText);
  if (Number.isNaN(chaos)) throw badOption('chaos', `must be a number from 0 to 1, got ${JSON.stringify(chaosText)}`);
  return {
    latency,
    rateLimit: rateText === undefined ? undefined : integer('rateLimit', rateText, 0),
    chaos,
    journalBytes: integer('journalBytes', pick('journal-bytes', 'PETSTORE_JOURNAL_BYTES'), DEFAULT_JOURNAL_BYTES),
    journalSize: integer('journalSize', pick('journal-size', 'PETSTORE_JOURNAL_SIZE'), DEFAULT_JOURNAL_SIZE),
    storeBytes: integer('storeBytes', pick('store-bytes', 'PETSTORE_STORE_BYTES'), DEFAULT_STORE_BYTES),
    sessions: {
      max: integer('sessions.max', pick('max-sessions', 'PETSTORE_MAX_SESSIONS'), DEFAULT_MAX_SESSIONS),
      // Seconds on the command line, as a person thinks of them; ms in the library.
      idleMs:
        integer('sessions.idleMs', pick('session-idle', 'PETSTORE_SESSION_IDLE'), DEFAULT_SESSION_IDLE_MS / 1000) *
        1000,
    },
  };
}

/** --cors-origin and --allowed-hosts (each repeatable, comma-separated), checked as the server checks them. */
function browserAccess(values: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  const list = (flag: string, variable: string) => {
    const given = (values[flag] as string[] | undefined) ?? (env[variable] ? [env[variable]] : undefined);
    return given?.flatMap((v) => v.split(',')).map((v) => v.trim());
  };
  return {
    corsOrigins: list('cors-origin', 'PETSTORE_CORS_ORIGINS'),
    allowedHosts: list('allowed-hosts', 'PETSTORE_ALLOWED_HOSTS'),
  };
}

function logLine(entry: RequestLogEntry): void {
  const outcome = entry.fault === undefined ? entry.status : `${entry.status || '-'} fault=${entry.fault}`;
  process.stderr.write(`${entry.method} ${entry.path} ${outcome} ${entry.ms.toFixed(1)}ms\n`);
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
    process.stderr.write(`petstore-mock: ${told(error as Error)}\nTry --help.\n`);
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
  let read: { count: number; fullListings: string[]; requests: number } | undefined;
  // The command's own settings stay here: startMockServer refuses a name that is not its option.
  const {
    help: _help,
    version: _version,
    fixtures: _fixtures,
    quiet: _quiet,
    coverage: _coverage,
    pact: _pact,
    ...server
  } = options;
  const { seed: _seed, count: _count, ...sourced } = server;
  const mock = await startMockServer({
    ...(options.petsFrom ? sourced : server),
    pets,
    onWarning,
    log: options.quiet ? undefined : logLine,
    onPetsRead: (r) => {
      read = r;
    },
  }).catch((error: Error) => {
    // A bad option is told under its flag; anything else is the socket's (in use, no such interface).
    const where = error instanceof PetstoreMockError ? '' : `cannot listen on ${options.host}:${options.port}: `;
    process.stderr.write(`petstore-mock: ${where}${told(error)}\n`);
    return undefined;
  });
  if (!mock) return 2;
  const seededFrom = options.petsFrom
    ? `from ${options.petsFrom.url}`
    : options.fixtures === undefined
      ? `seed ${options.seed}`
      : options.fixtures;
  const source = options.store === undefined ? seededFrom : `store ${hidePassword(options.store)}`;
  if (read)
    process.stdout.write(
      `Read ${read.count} pets from ${options.petsFrom!.url} (${read.requests} GET requests, nothing else sent)\n`,
    );
  if (read && read.fullListings.length > 0)
    onWarning(
      `the source's listing ${read.fullListings.join(', ')} came back full (${read.fullListings.length > 1 ? 'each ' : ''}at the interface's largest limit): it may hold more pets than the mock could see`,
    );
  const key = options.apiKeys ? '(the key you configured; not printed)' : DEFAULT_API_KEY;
  const shown = options.apiKeys ? '<API_KEY>' : DEFAULT_API_KEY;
  process.stdout.write(
    `Petstore mock serving ${mock.pets.size} pets (${source}) at ${mock.url}\n` +
      `API key: ${key}\n` +
      `Try:     curl -H "Authorization: Bearer ${shown}" ${mock.url}/pets?limit=5\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await mock.close();
  const pactStatus = options.pact ? writePact(mock.pact(options.pact.options), options.pact.file) : 0;
  return Math.max(pactStatus, reportCoverage(mock.coverage(), options.coverage));
}

/** On stop: the pact file, and its warnings on stderr; 2 when it cannot be written. */
function writePact(pact: PactFile, file: string): number {
  try {
    writeFileSync(file, `${JSON.stringify(pact, null, 2)}\n`);
  } catch (error) {
    process.stderr.write(`petstore-mock: cannot write the pact: ${(error as Error).message}\n`);
    return 2;
  }
  process.stderr.write(`Wrote the pact (${pact.interactions.length} interactions) to ${file}\n`);
  for (const warning of pact.metadata.petstoreMock.warnings) process.stderr.write(`warning: ${warning}.\n`);
  return 0;
}

/**
 * On stop: the coverage files, the table on stderr, and exit 1 when a required response was never received or,
 * with --fail-on-invalid-requests, when a client sent a request the contract refuses.
 */
function reportCoverage(
  report: CoverageReport,
  o: { json: string | undefined; html: string | undefined; require: string[]; failOnInvalidRequests: boolean },
): number {
  if (o.json === undefined && o.html === undefined && o.require.length === 0 && !o.failOnInvalidRequests) return 0;
  try {
    if (o.json !== undefined) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
    if (o.html !== undefined) writeFileSync(o.html, renderCoverageHtml(report));
  } catch (error) {
    process.stderr.write(`petstore-mock: cannot write the coverage: ${(error as Error).message}\n`);
    return 2;
  }
  process.stderr.write(formatCoverage(report));
  const failures = coverageGateFailures(report, {
    responses: o.require,
    allowInvalidRequests: !o.failOnInvalidRequests,
  });
  for (const failure of failures) process.stderr.write(`petstore-mock: ${failure}\n`);
  return failures.length === 0 ? 0 : 1;
}
