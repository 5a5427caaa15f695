/**
 * The `petstore-conformance` command as a function: parse arguments and
 * environment, run the suite, write each report, and return the exit code:
 * 0 (every required case passed), 1 (a case failed) or 2 (the run could not
 * test the server, with a one-line reason). `cli.ts` is the entry that calls it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { packageVersion } from '../../spec/files.ts';
import { parseDuration } from '../client/duration.ts';
import { badOptions } from '../errors.ts';
import {
  ConformanceError,
  type ConformanceOptions,
  DEFAULT_GENERATION_SEED,
  parseBaseline,
  type Report,
  runConformance,
} from '../index.ts';
import { shouldColor } from '../report/index.ts';
import { outputRedactors } from '../report/redact-report.ts';
import {
  needsExchangeLog,
  notWrittenLine,
  parseReportTargets,
  type ReportTarget,
  reporterUsage,
  writeReports,
} from '../report/targets.ts';
import { select } from '../run/select.ts';
import { secretsOf } from '../run/settings.ts';
import { parseShard, shardSelection } from '../run/shard.ts';
import { exitOf } from './exit.ts';
import { judgeMain } from './judge.ts';
import { renderList } from './list.ts';
import { mergeMain } from './merge.ts';
import { createProgressLine } from './progress.ts';
import { type StartedServer, startServer } from './start.ts';

const HELP = `Usage: npx petstore-conformance [options]
       npx petstore-conformance judge FILE.har [FILE.har …] --base-url URL (recorded traffic; judge --help)
       npx petstore-conformance merge FILE.json [FILE.json …] (the shards of a split run; merge --help)
       (outside a project with petstore-toolkit installed: npx --yes -p petstore-toolkit@0 petstore-conformance [options])

Runs the Petstore conformance suite against a server.

Target:
  --base-url URL        base URL ending in /v1 (or PETSTORE_BASE_URL)
  --start CMD           start the server under test with this shell command first (its own
                        process group, its output kept); refused when something already
                        answers at the base URL; waited for (--wait-for, default 60s); the
                        whole group stopped at the end, on Ctrl-C and SIGTERM too
  --api-key KEY         bearer API key (or PETSTORE_API_KEY; prefer the variable)
  --env NAME            production or staging: the base URL comes from
                        PETSTORE_PRODUCTION_URL or PETSTORE_STAGING_URL
Network (staging behind a proxy or a gateway):
  --proxy URL           send every request through this HTTP proxy, http://[user:pass@]host:port
                        (default: HTTPS_PROXY / HTTP_PROXY, either case, unless NO_PROXY names the host)
  --header 'Name: v'    add this header to every request (repeatable; not Authorization or Host);
                        its value is a secret, hidden in every report like the key
  --ca FILE             trust this CA (PEM) for the target's certificate, beside the system's
  --cert FILE           send this client certificate (PEM) when the target asks for one (mTLS),
  --cert-key FILE       with this private key (PEM)
Run:
  --timeout T           per-request timeout with a unit: 500ms, 10s (default 10s)
  --concurrency N       cases run at once (default 8)
  --max-wait T          time the run may spend waiting when the server answers 429 or 503
                        with Retry-After, in all (default 60s; 0s never waits)
  --max-time T          time the whole run may take (default 10m); past it the run ends,
                        exit 2, with every report written with what was judged
  --rate N              at most N requests per second (for a fragile staging)
  --wait-for T          first wait up to T (60s) for the server to answer at all (any status
                        counts as up), polling with backoff; if it never does, exit 2
  --only IDS            run only these (comma-separated, repeatable): case ids or patterns
                        (* is a wildcard; listPets.limit matches listPets.limit.*), a level
                        (required, advice), an operation id (getPet: its cases, auth and
                        generated ones included) or a tag of the spec (pets)
  --skip IDS            leave out these, named the same way
  --read-only           send GET requests only: the cases that send a POST are skipped,
                        and the report says what was not checked
                        (implied by --env unless --allow-writes)
  --allow-writes        allow creating animals with --env production or staging
  --strict              advice becomes failure; Pets may carry no extra fields
  --run-id ID           name created animals conformance-ID-... (default: random)
  --shard I/N           run part I of N of the selected cases (one job of a CI matrix): each case
                        in exactly one part, the same for the same seed on every machine, the
                        generated checks as one; then merge the JSON reports (merge --help)
  --list                print every case id and generated check id with its level,
                        operation and section (after --only/--skip), and run nothing;
                        --json for JSON
Generated requests (for a disposable server, not production):
  --generate N          add N generated requests per operation, each failure shrunk to
                        the smallest reproduction (default 0: off; reads only when read-only)
  --seed S              seed of the generated requests (default ${DEFAULT_GENERATION_SEED}); always reported
  --prefix-names        generated names carry the run prefix, and the empty name is
                        skipped (implied by --env)
Reports:
${reporterUsage(24)}
  --baseline FILE       known failures (JSON array of ids, or a JSON report): exit 0
                        while only those fail; the report names the ones now fixed
  -h, --help            show this help
  --version             print the version

Exit status: 0 every required case passed, 1 a case failed, 2 the run could not test the
server (bad arguments, no case selected, unreachable, not up within --wait-for, no answer,
TLS or protocol mismatch, no API at the base URL, every request failed, the key rejected);
one line says why.
A progress line is drawn on stderr when it is a terminal (not in CI); NO_COLOR and
FORCE_COLOR are respected.
`;

/** A bad command line: the one error family of the suite, with the flag it concerns. */
function usage(flag: string, message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message, { option: flag });
}

/** The flag of each option runConformance names in its errors: the command prints `--max-wait`, not `maxWaitMs`. */
const FLAGS: Record<string, string> = {
  baseUrl: '--base-url',
  apiKey: '--api-key',
  timeoutMs: '--timeout',
  concurrency: '--concurrency',
  maxWaitMs: '--max-wait',
  maxTimeMs: '--max-time',
  waitForMs: '--wait-for',
  ratePerSecond: '--rate',
  generate: '--generate',
  seed: '--seed',
  runId: '--run-id',
  headers: '--header',
  proxy: '--proxy',
  ca: '--ca',
  cert: '--cert',
  key: '--cert-key',
  baseline: '--baseline',
  shard: '--shard',
};

/** An error as the command prints it: a bad option under its flag's name when it reads as the name then a problem. */
function told(error: ConformanceError): string {
  const flag = error.option === undefined ? undefined : FLAGS[error.option];
  return flag !== undefined && error.problem !== undefined ? `${flag} ${error.problem}` : error.message;
}

/** A number as runConformance takes it; its range is runConformance's to check. Text that is not one is refused here. */
function number(option: string, text: string, integer = true): number {
  const value = (integer ? /^\d{1,15}$/ : /^\d{1,15}(\.\d+)?$/).test(text.trim()) ? Number(text) : Number.NaN;
  if (Number.isNaN(value))
    throw badOptions(option, `must be ${integer ? 'a whole number' : 'a number'}, got ${JSON.stringify(text)}`);
  return value;
}

function list(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  env: { type: 'string' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  'read-only': { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  strict: { type: 'boolean' },
  'run-id': { type: 'string' },
  generate: { type: 'string' },
  seed: { type: 'string' },
  'prefix-names': { type: 'boolean' },
  reporter: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  'max-wait': { type: 'string' },
  'max-time': { type: 'string' },
  'wait-for': { type: 'string' },
  rate: { type: 'string' },
  list: { type: 'boolean' },
  json: { type: 'boolean' },
  proxy: { type: 'string' },
  header: { type: 'string', multiple: true },
  ca: { type: 'string' },
  cert: { type: 'string' },
  'cert-key': { type: 'string' },
  shard: { type: 'string' },
  start: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** What the command line asks for. */
interface CliPlan {
  help: boolean;
  version?: boolean;
  /** `--list`: print the cases (as JSON with `--json`) and run nothing. */
  list?: { json: boolean };
  options: ConformanceOptions;
  reporters: ReportTarget[];
  /** `--start CMD`: the server under test, started and stopped by the command. */
  start?: string;
}

function resolveBaseUrl(values: { 'base-url'?: string; env?: string }, env: NodeJS.ProcessEnv): string {
  if (values.env !== undefined) {
    if (values['base-url'] !== undefined) throw usage('--env', 'give either --base-url or --env, not both');
    const variable = { production: 'PETSTORE_PRODUCTION_URL', staging: 'PETSTORE_STAGING_URL' }[values.env];
    if (!variable) throw usage('--env', `--env must be production or staging, got ${JSON.stringify(values.env)}`);
    const url = env[variable];
    if (!url) throw usage('--env', `--env ${values.env} needs ${variable} to be set`);
    return url;
  }
  const url = values['base-url'] ?? env.PETSTORE_BASE_URL;
  if (!url) throw usage('--base-url', 'no base URL: pass --base-url or set PETSTORE_BASE_URL');
  return url;
}

/** Turns arguments and environment into a plan; throws a UsageError for bad arguments. */
export function planFromArgs(args: string[], env: NodeJS.ProcessEnv): CliPlan {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true; allowPositionals: false }>
  >;
  try {
    parsed = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  } catch (err) {
    throw usage('', (err as Error).message.split('\n')[0]!);
  }
  const v = parsed.values;
  if (v.help) return { help: true, options: { baseUrl: '', apiKey: '' }, reporters: [] };
  if (v.version) return { help: false, version: true, options: { baseUrl: '', apiKey: '' }, reporters: [] };
  if (v.json && !v.list) throw usage('--json', '--json goes with --list (for a JSON report: --reporter json)');
  if (v.list) {
    const options: ConformanceOptions = { baseUrl: '', apiKey: '', only: list(v.only), skip: list(v.skip) };
    if (v.shard !== undefined) options.shard = parseShard(v.shard);
    if (v.generate !== undefined) options.generate = number('generate', v.generate);
    if (v.seed !== undefined) options.seed = number('seed', v.seed);
    return { help: false, list: { json: v.json === true }, options, reporters: [] };
  }
  const baseUrl = resolveBaseUrl(v, env);
  const apiKey = v['api-key'] ?? env.PETSTORE_API_KEY;
  if (!apiKey) throw usage('--api-key', 'no API key: pass --api-key or set PETSTORE_API_KEY');
  if (v['read-only'] && v['allow-writes'])
    throw usage('--read-only', '--read-only and --allow-writes contradict each other');
  // A shared environment (production, someone else's staging) is read-only unless the run is told it may write.
  const readOnly = v['read-only'] === true || (v.env !== undefined && v['allow-writes'] !== true);
  const options: ConformanceOptions = {
    baseUrl,
    apiKey,
    readOnly,
    strict: v.strict === true,
    only: list(v.only),
    skip: list(v.skip),
  };
  if (v.timeout !== undefined) options.timeoutMs = parseDuration(v.timeout, 'timeoutMs');
  if (v['max-wait'] !== undefined) options.maxWaitMs = parseDuration(v['max-wait'], 'maxWaitMs');
  if (v['max-time'] !== undefined) options.maxTimeMs = parseDuration(v['max-time'], 'maxTimeMs');
  if (v['wait-for'] !== undefined) options.waitForMs = parseDuration(v['wait-for'], 'waitForMs');
  if (v.rate !== undefined) options.ratePerSecond = number('ratePerSecond', v.rate, false);
  if (v.concurrency !== undefined) options.concurrency = number('concurrency', v.concurrency);
  if (v['run-id'] !== undefined) options.runId = v['run-id'];
  if (v.generate !== undefined) options.generate = number('generate', v.generate);
  if (v.seed !== undefined) options.seed = number('seed', v.seed);
  if (v['prefix-names'] || v.env !== undefined) options.prefixNames = true;
  if (v.baseline !== undefined) options.baseline = readBaseline(v.baseline);
  if (v.shard !== undefined) options.shard = parseShard(v.shard);
  if (v.start !== undefined && v.start.trim() === '') throw usage('--start', '--start needs a command');
  Object.assign(options, networkOptions(v, env));
  const reporters = parseReportTargets(v.reporter);
  if (needsExchangeLog(reporters)) options.exchangeLog = true;
  return { help: false, options, reporters, ...(v.start === undefined ? {} : { start: v.start }) };
}

/** `Name: value` into its two parts; the value may hold colons. */
function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw usage('--header', `--header must be 'Name: value', got a value without a name`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw usage(flag, `cannot read ${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The proxy, extra headers and TLS files of the command line, read; the environment goes along for the proxy variables. */
function networkOptions(
  v: { proxy?: string; header?: string[]; ca?: string; cert?: string; 'cert-key'?: string },
  env: NodeJS.ProcessEnv,
): Partial<ConformanceOptions> {
  const options: Partial<ConformanceOptions> = { env };
  if (v.proxy !== undefined) options.proxy = v.proxy;
  if (v.header?.length) {
    const headers: Record<string, string> = {};
    for (const text of v.header) {
      const [name, value] = parseHeader(text);
      if (Object.keys(headers).some((n) => n.toLowerCase() === name.toLowerCase()))
        throw usage('--header', `--header ${name} is given twice`);
      headers[name] = value;
    }
    options.headers = headers;
  }
  if ((v.cert === undefined) !== (v['cert-key'] === undefined))
    throw usage('--cert', '--cert and --cert-key go together');
  if (v.ca !== undefined) options.ca = readPem('--ca', v.ca);
  if (v.cert !== undefined) options.cert = readPem('--cert', v.cert);
  if (v['cert-key'] !== undefined) options.key = readPem('--cert-key', v['cert-key']);
  return options;
}

function readBaseline(file: string): string[] {
  try {
    return parseBaseline(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw usage('--baseline', `cannot read baseline ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Runs the command and returns its exit code; output goes to the given streams. */
export async function main(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: NodeJS.WriteStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  if (args[0] === 'judge') return judgeMain(args.slice(1), env, out, err);
  if (args[0] === 'merge') return mergeMain(args.slice(1), env, out, err);
  const progress = createProgressLine(err, env);
  let plan: ReturnType<typeof planFromArgs> | undefined;
  try {
    plan = planFromArgs(args, env);
    if (plan.help) {
      out.write(HELP);
      return 0;
    }
    if (plan.version) {
      out.write(`${packageVersion()}\n`);
      return 0;
    }
    if (plan.list) {
      const { shard, seed, generate } = plan.options;
      const whole = select(plan.options);
      const shown = shard
        ? shardSelection(whole, shard, seed ?? DEFAULT_GENERATION_SEED, generate ?? 0).selection
        : whole;
      out.write(renderList(shown, plan.list.json));
      return 0;
    }
    if (plan.start !== undefined) return await withStartedServer(plan, plan.start, env, err, () => runPlan(plan!));
    return await runPlan(plan);
  } catch (e) {
    return failed(e, plan);
  }

  /** Runs the plan and writes its reports; the exit code. */
  async function runPlan(plan: CliPlan): Promise<number> {
    const report = await runConformance({ ...plan.options, onProgress: (p) => progress.update(p) });
    progress.clear();
    writeRunReports(report, plan.reporters, out, err, env);
    const exit = exitOf(report);
    if (exit.line) err.write(`petstore-conformance: ${exit.line}\n`);
    return exit.code;
  }

  /** A run that could not happen or ended early: its reports, when it had started, and one line; exit 2. */
  function failed(e: unknown, plan: CliPlan | undefined): number {
    progress.clear();
    // A run that started and ended early still writes every report, with what it judged and why it ended.
    if (e instanceof ConformanceError && e.report && plan) writeRunReports(e.report, plan.reporters, out, err, env);
    const reason = e instanceof ConformanceError ? told(e) : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
    const usageError = e instanceof ConformanceError && e.code === 'PETSTORE_CONFORMANCE_BAD_OPTIONS' && !e.report;
    // runConformance hides every secret in its errors and reports; the command's own lines quote none.
    err.write(`petstore-conformance: ${reason.split('\n')[0]}${usageError ? ' (see --help)' : ''}\n`);
    return 2;
  }
}

/** How long `--start` waits for its server to answer when `--wait-for` does not say. */
const DEFAULT_START_WAIT_MS = 60_000;

/**
 * `--start CMD`: starts the server (refused when something already answers), runs, and stops the command's whole
 * process group at the end: after exit 0, 1 or 2, on SIGINT and SIGTERM (then exit 2: the run could not finish),
 * and, as a last resort, with SIGKILL when the process exits some other way.
 */
async function withStartedServer(
  plan: CliPlan,
  command: string,
  env: NodeJS.ProcessEnv,
  err: NodeJS.WriteStream,
  run: () => Promise<number>,
): Promise<number> {
  const waitForMs = plan.options.waitForMs ?? DEFAULT_START_WAIT_MS;
  // The server now answers TCP; the run still waits, within the same bound, for it to answer HTTP.
  plan.options.waitForMs = waitForMs;
  let server: StartedServer | undefined;
  let stopping = false;
  const killOnExit = () => {
    if (!stopping) server?.kill();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    err.write(`petstore-conformance: ${signal}: the run stops here, and the --start server with it\n`);
    void (server?.stop() ?? Promise.resolve()).finally(() => process.exit(2));
  };
  process.on('exit', killOnExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    try {
      server = await startServer({
        command,
        baseUrl: plan.options.baseUrl,
        waitForMs,
        hide: outputRedactors(secretsOf(plan.options)).text,
        env,
        onSpawn: (spawned) => {
          server = spawned;
        },
      });
    } catch (e) {
      if (!(e instanceof ConformanceError)) throw e;
      // The command's last lines follow the reason: why a server died at start is in them.
      err.write(`petstore-conformance: ${e.message}\n`);
      return 2;
    }
    return await run();
  } finally {
    if (!stopping) await server?.stop();
    stopping = true;
    process.off('exit', killOnExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Writes every report; one that cannot be written is a line on stderr and the others are still written, and the
 * exit code stays the run's own.
 */
function writeRunReports(
  report: Report,
  targets: ReportTarget[],
  out: NodeJS.WriteStream,
  err: NodeJS.WriteStream,
  env: NodeJS.ProcessEnv,
): void {
  // A run that ended before any case (the first request showed it cannot test the server) says why in its one
  // stderr line; the terminal gets no empty report beside it. Files, and JSON or JUnit on stdout, still come.
  const quiet = report.ended && report.cases.length === 0;
  const wanted = targets.filter((t) => !(quiet && t.file === undefined && t.reporter === 'pretty'));
  for (const failure of writeReports(report, wanted, { out, color: shouldColor(out, env) }))
    err.write(notWrittenLine('petstore-conformance', failure));
}
