/**
 * The run's options, checked once: `checkOptions` refuses what cannot run
 * (with a ConformanceError saying what to fix), fills in every default, and
 * makes the selection, so that the stages after it read one settled object.
 */

import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { unknownOptions } from '../../guard/options.ts';
import { urlUserInfo } from '../../guard/redact.ts';
import { allCases } from '../cases/index.ts';
import type { ClientOptions, TlsOptions } from '../client/client.ts';
import { nearKeys } from '../client/near-key.ts';
import { chooseProxy, type ProxyChoice, proxySecrets, shownProxy } from '../client/proxy.ts';
import { canRequest, undici } from '../client/undici.ts';
import { badOptions } from '../errors.ts';
import { generatedProperties } from '../generate/catalog.ts';
import { DEFAULT_GENERATION_SEED, type GenerationSettings } from '../generate/index.ts';
import type { Case, Progress, Report, Shard, ShardInfo } from '../types.ts';
import { namePrefix } from './context.ts';
import { type Selection, select } from './select.ts';
import { checkShard, shardSelection } from './shard.ts';

/** How long a run may take in all unless told otherwise (`maxTimeMs`, `--max-time`): ten minutes. */
const DEFAULT_MAX_TIME_MS = 600_000;

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** Base URL ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Inject the HTTP client (an undici Agent is used and closed otherwise). */
  dispatcher?: Dispatcher;
  /** Per-request timeout in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Cases run at once (default 8). */
  concurrency?: number;
  /** The fixed cases to choose from (default: `allCases()`, or a subset of it). */
  cases?: readonly Case[];
  /** Case ids or patterns to run (all when empty). */
  only?: string[];
  /** Case ids or patterns to leave out. */
  skip?: string[];
  /** Send GET requests only: every case that sends a POST (or could create an animal) is skipped, and the report says what went unchecked. */
  readOnly?: boolean;
  /** Advice becomes failure; Pet bodies may carry no fields beyond the spec. */
  strict?: boolean;
  /** Names created animals `conformance-<runId>-...` (default: random). */
  runId?: string;
  /** Case ids known to fail: the report is ok while only these fail. */
  baseline?: string[];
  /** Response bodies longer than this fail their case (default 1 MiB). */
  maxBodyBytes?: number;
  /** Wall-clock time the run may spend waiting on 429/503 `Retry-After`, in all (default 60000). */
  maxWaitMs?: number;
  /** Wall-clock limit of the whole run (default 600000, ten minutes): past it the run ends with PETSTORE_CONFORMANCE_MAX_TIME and the report of what it judged. */
  maxTimeMs?: number;
  /**
   * Before the run, wait up to this long (ms) for the target to answer anything (any status counts as up), polling
   * with a backoff; when it never does, PETSTORE_CONFORMANCE_NOT_UP. Default 0: no wait, the first request decides.
   */
  waitForMs?: number;
  /** At most this many requests per second (default: no cap). */
  ratePerSecond?: number;
  /** Called after each case, for a progress line. */
  onProgress?: (progress: Progress) => void;
  /** Generated requests per operation, after the fixed cases (default 0: none). */
  generate?: number;
  /** Seed of the generated requests (default DEFAULT_GENERATION_SEED): the same seed sends the same requests. */
  seed?: number;
  /** Every generated name carries the run prefix, and values that cannot (the empty name) are skipped (shared environments). */
  prefixNames?: boolean;
  /** Keep every exchange of the run, in the order sent, in `report.exchangeLog` (bounded; the har reporter writes it). */
  exchangeLog?: boolean;
  /**
   * Send every request through this HTTP proxy (`http://[user:password@]host:port`). Default: `HTTPS_PROXY` or
   * `HTTP_PROXY` (either case) for the target's scheme, unless `NO_PROXY` names its host, as curl does.
   */
  proxy?: string;
  /** Headers sent on every request (a gateway's tenant or token); not Authorization or Host. Their values are secrets. */
  headers?: Readonly<Record<string, string>>;
  /** A private CA to trust for this run's TLS (PEM), beside the system's. */
  ca?: string;
  /** A client certificate (PEM) for a target that asks for mutual TLS, with `key`. */
  cert?: string;
  /** The client certificate's private key (PEM). */
  key?: string;
  /** Where the proxy variables are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Run only this part of a split run (`--shard i/n`): each selected case is in exactly one shard, the same for the
   * same seed on every machine; the generated checks are one unit. Created animals carry the shard in their names.
   */
  shard?: Shard;
}

/** Every name of {@link ConformanceOptions}: a key outside it is a typo, refused (the type keeps the two equal). */
const OPTION_NAMES: Record<keyof ConformanceOptions, true> = {
  baseUrl: true,
  apiKey: true,
  dispatcher: true,
  timeoutMs: true,
  concurrency: true,
  cases: true,
  only: true,
  skip: true,
  readOnly: true,
  strict: true,
  runId: true,
  baseline: true,
  maxBodyBytes: true,
  maxWaitMs: true,
  maxTimeMs: true,
  waitForMs: true,
  ratePerSecond: true,
  onProgress: true,
  generate: true,
  seed: true,
  prefixNames: true,
  exchangeLog: true,
  proxy: true,
  headers: true,
  ca: true,
  cert: true,
  key: true,
  env: true,
  shard: true,
};

/** Refuses options that are not an object, and every key that is no option, naming the closest option (a typo is never ignored). */
function checkKnown(options: ConformanceOptions): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw badOptions('options', 'must be an object ({ baseUrl, apiKey, ... })');
  const unknown = unknownOptions(options, Object.keys(OPTION_NAMES));
  if (unknown) throw badOptions(unknown.option, '', unknown.message);
}

/** Everything a run reads, checked and with its defaults: what each stage needs, and nothing raw. */
export interface Settings {
  /** The base URL as given (the report names it). */
  baseUrl: string;
  /** The base URL without a trailing slash: what the report's URLs are shortened against. */
  apiBase: string;
  /** The base URL's path without a trailing slash (`/v1`), for the status table. */
  basePath: string;
  apiKey: string;
  runId: string;
  /** The settings the report states. */
  reported: Report['options'];
  client: ClientOptions;
  /** Probe for TLS when an http: target closes without answering (not with an injected dispatcher). */
  probeTls: boolean;
  selection: Selection;
  /** The generated checks to run; undefined when `generate` is 0 or selects none. */
  generation: GenerationSettings | undefined;
  seed: number;
  /** Fixed cases and (when generation is on) generated checks that `only`/`skip` left out. */
  deselected: number;
  baseline: readonly string[] | undefined;
  /** Keep every exchange in the report's exchange log. */
  exchangeLog: boolean;
  /** The whole run's wall-clock limit, in milliseconds. */
  maxTimeMs: number;
  /** How long to wait for the target to answer at all before the run (0: not at all). */
  waitForMs: number;
  onProgress: ((progress: Progress) => void) | undefined;
  /** Every value no output may show: the key, the extra headers' values, the proxy's credentials. */
  secrets: string[];
  /** The proxy the run goes through, as the report shows it (credentials hidden) and where it came from. */
  proxy: { shown: string; source: string } | undefined;
  /** The part of a split run this is, as the report states it; undefined when the run is whole. */
  shard: ShardInfo | undefined;
}

/** The environment variables a proxy may come from. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

/**
 * Every value of a run that no output may show, decided here once and read from the options as given (so that an
 * error about a bad option hides them too): the key, the extra headers' values, the credentials of the proxy
 * (option or environment) and of the base URL, each in every form the suite sends it.
 */
export function secretsOf(options: ConformanceOptions): string[] {
  const given = (options ?? {}) as Partial<ConformanceOptions>;
  const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const headers = given.headers !== null && typeof given.headers === 'object' ? Object.values(given.headers) : [];
  const env = given.env ?? process.env;
  const proxies = [given.proxy, ...PROXY_VARIABLES.map((name) => env[name])].filter(text);
  const all = [
    // The near keys the auth cases send are one edit from the key: a server that echoes one would show the key.
    ...(text(given.apiKey) ? [given.apiKey, ...nearKeys(given.apiKey)] : []),
    ...headers.filter(text).map((v) => v.trim()),
    ...proxies.flatMap(credentialsIn),
    ...(text(given.baseUrl) ? credentialsIn(given.baseUrl) : []),
  ];
  return [...new Set(all.filter((s) => s.length > 0))];
}

/** The credentials a URL carries, in every form the suite may show or send (Basic included); a URL that does not parse too. */
function credentialsIn(url: string): string[] {
  const parsed = proxySecrets(url);
  return parsed.length === 1 && parsed[0] === url ? urlUserInfo(url) : parsed;
}

function checkTarget(options: ConformanceOptions): URL {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw badOptions('baseUrl', `is not a URL: ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badOptions('baseUrl', `must be http or https: ${url.protocol}`);
  if (url.search || url.hash) throw badOptions('baseUrl', 'must not have a query or fragment');
  // Basic credentials would go in Authorization, which carries the API key: refused, never dropped in silence.
  if (url.username || url.password)
    throw badOptions(
      'baseUrl',
      'carries credentials (user:password@): the suite sends the API key in Authorization, so it cannot send Basic credentials too; take them out of the URL and give what the gateway needs as a header (--header)',
    );
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw badOptions('apiKey', 'is required');
  if (options.dispatcher === undefined && !canRequest(undici.Agent.prototype))
    throw badOptions(
      'dispatcher',
      '',
      "this runtime's undici cannot send requests (its Agent has no request()): run the suite on Node, Bun or Deno",
    );
  if (options.dispatcher !== undefined && !canRequest(options.dispatcher))
    throw badOptions(
      'dispatcher',
      '',
      "the dispatcher is not undici's: no request() method, or no dispatch() (on Bun, 'undici' is Bun's stand-in and its dispatchers cannot send): run the suite against a base URL instead, e.g. a mock from startMockServer",
    );
  return url;
}

function checkNumbers(options: ConformanceOptions): void {
  for (const [name, v, min] of [
    ['timeoutMs', options.timeoutMs, 1],
    ['concurrency', options.concurrency, 1],
    ['maxWaitMs', options.maxWaitMs, 0],
    ['maxTimeMs', options.maxTimeMs, 1],
    ['waitForMs', options.waitForMs, 0],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < min))
      throw badOptions(
        name,
        name === 'concurrency'
          ? `must be an integer of at least ${min}, got ${v}`
          : `must be a whole number of milliseconds of at least ${min}, got ${v}`,
      );
  }
  if (options.ratePerSecond !== undefined && !(options.ratePerSecond > 0))
    throw badOptions('ratePerSecond', `must be more than 0, got ${options.ratePerSecond}`);
  if (options.generate !== undefined && (!Number.isInteger(options.generate) || options.generate < 0))
    throw badOptions('generate', `must be a non-negative integer, got ${options.generate}`);
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0 && options.seed < 2 ** 31))
    throw badOptions('seed', `must be an integer from 0 to ${2 ** 31 - 1}, got ${options.seed}`);
  if (options.runId !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(options.runId))
    throw badOptions('runId', 'may hold only letters, digits, _ and - (at most 40)');
}

/** Header names the suite sets itself, or that would change what a request is. */
const RESERVED_HEADERS = new Set([
  'authorization',
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'accept',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The extra headers, names in lowercase; refuses reserved names and values that are not one line of visible text. */
function checkHeaders(headers: ConformanceOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (headers === null || typeof headers !== 'object') throw badOptions('headers', 'must be an object of name: value');
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      throw badOptions('headers', '', `header name ${JSON.stringify(name)} is not a valid HTTP header name`);
    if (RESERVED_HEADERS.has(lower))
      throw badOptions(
        'headers',
        '',
        lower === 'authorization'
          ? 'the Authorization header carries the API key: give the key with --api-key, not --header'
          : `the ${name} header is set by the suite itself and cannot be given with --header`,
      );
    if (typeof value !== 'string' || !/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
      throw badOptions('headers', '', `the value of header ${name} must be one line of text (no control characters)`);
    if (Object.hasOwn(out, lower)) throw badOptions('headers', '', `header ${name} is given twice`);
    out[lower] = value.trim();
  }
  return out;
}

function checkPem(name: string, value: string | undefined, marker: RegExp): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !marker.test(value))
    throw badOptions(name, 'must be PEM text (-----BEGIN ...-----), as read from the file');
  return value;
}

/** TLS material for the target; a certificate and its key come together. */
function checkTls(options: ConformanceOptions): TlsOptions | undefined {
  const ca = checkPem('ca', options.ca, /-----BEGIN CERTIFICATE-----/);
  const cert = checkPem('cert', options.cert, /-----BEGIN CERTIFICATE-----/);
  const key = checkPem('key', options.key, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  if ((cert === undefined) !== (key === undefined))
    throw badOptions('cert', '', 'a client certificate needs both cert and key (--cert FILE --cert-key FILE)');
  if (ca === undefined && cert === undefined) return undefined;
  return { ...(ca ? { ca } : {}), ...(cert ? { cert, key } : {}) };
}

function checkProxy(target: URL, options: ConformanceOptions): ProxyChoice | undefined {
  if (options.proxy !== undefined && typeof options.proxy !== 'string')
    throw badOptions('proxy', 'must be a URL string');
  const choice = chooseProxy(target, options.proxy, options.env ?? process.env);
  if (!choice) return undefined;
  let url: URL;
  try {
    url = new URL(choice.url);
  } catch {
    throw badOptions('proxy', '', `the proxy from ${choice.source} is not a URL: ${shownProxy(choice.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badOptions(
      'proxy',
      '',
      `the proxy from ${choice.source} must be an http:// or https:// URL, got ${url.protocol}`,
    );
  return choice;
}

/** The cases to choose from: `allCases()` unless given, each a case with an id and a run function, no id twice. */
function checkCases(cases: ConformanceOptions['cases']): readonly Case[] {
  if (cases === undefined) return allCases();
  if (!Array.isArray(cases)) throw badOptions('cases', 'must be an array of cases (allCases() or a subset of it)');
  const seen = new Set<string>();
  for (const c of cases as unknown[]) {
    const candidate = c as Partial<Case> | null;
    if (typeof candidate?.id !== 'string' || typeof candidate.run !== 'function')
      throw badOptions('cases', '', 'each of cases must be a case from allCases() (an id and a run function)');
    if (seen.has(candidate.id)) throw badOptions('cases', `holds ${candidate.id} twice`);
    seen.add(candidate.id);
  }
  return cases;
}

/** Checks `options` once and settles every default; throws a ConformanceError when the run cannot happen. */
export function checkOptions(options: ConformanceOptions): Settings {
  checkKnown(options);
  const url = checkTarget(options);
  checkNumbers(options);
  const headers = checkHeaders(options.headers);
  const tls = checkTls(options);
  const proxy = checkProxy(url, options);
  if (options.dispatcher !== undefined && (proxy || tls))
    throw badOptions(
      'dispatcher',
      '',
      `${proxy ? `a proxy (from ${proxy.source})` : 'TLS options'} cannot apply to an injected dispatcher: configure the dispatcher instead`,
    );
  const requests = options.generate ?? 0;
  const shard = options.shard === undefined ? undefined : checkShard(options.shard);
  const whole = select(
    { only: options.only ?? [], skip: options.skip ?? [] },
    { cases: checkCases(options.cases), generated: generatedProperties() },
  );
  if (requests === 0 && whole.cases.length === 0)
    throw badOptions(
      'generate',
      '',
      'no fixed case is selected, only generated checks, but generate is 0 (--generate N): nothing would be tested',
    );
  const seed = options.seed ?? DEFAULT_GENERATION_SEED;
  const split = shard ? shardSelection(whole, shard, seed, requests) : undefined;
  const selection = split?.selection ?? whole;
  // Shards of one run may share a server and a run id: each names what it creates apart.
  const runId = `${options.runId ?? randomBytes(4).toString('hex')}${shard ? `-${shard.current}of${shard.total}` : ''}`;
  const reported = {
    strict: options.strict ?? false,
    readOnly: options.readOnly ?? false,
    concurrency: options.concurrency ?? 8,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
  const basePath = url.pathname.replace(/\/+$/, '');
  return {
    baseUrl: options.baseUrl,
    apiBase: url.origin + basePath,
    basePath,
    apiKey: options.apiKey,
    runId,
    reported,
    client: {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: reported.timeoutMs,
      connections: reported.concurrency,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(reported.readOnly ? { getOnly: true } : {}),
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(proxy ? { proxy } : {}),
      ...(tls ? { tls } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      throttle: {
        ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
        ...(options.ratePerSecond === undefined ? {} : { ratePerSecond: options.ratePerSecond }),
      },
    },
    probeTls: !options.dispatcher,
    selection,
    generation:
      requests > 0 && selection.generated.length > 0
        ? {
            requests,
            seed,
            strict: reported.strict,
            readOnly: reported.readOnly,
            prefix: options.prefixNames ? namePrefix(runId) : undefined,
            properties: selection.generated,
          }
        : undefined,
    seed,
    deselected: selection.casesLeftOut + (requests > 0 ? selection.generatedLeftOut : 0),
    baseline: options.baseline,
    exchangeLog: options.exchangeLog === true,
    maxTimeMs: options.maxTimeMs ?? DEFAULT_MAX_TIME_MS,
    waitForMs: options.waitForMs ?? 0,
    onProgress: options.onProgress,
    secrets: secretsOf(options),
    proxy: proxy ? { shown: shownProxy(proxy.url), source: proxy.source } : undefined,
    shard: split?.info,
  };
}
