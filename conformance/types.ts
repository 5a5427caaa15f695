/**
 * The data the suite passes around: requests and captured exchanges, check
 * results, cases and their context, and the report. Plain objects only, so a
 * report can be serialised as it is.
 */
import type { Pet, PetStatus } from '../spec/index.ts';
import type { NearKey } from './client/near-key.ts';

/**
 * `required` for what the interface documents; `advice` for what it does not state but an RFC section or the
 * contract's own text supports (the case's `basis`); `info` for a choice it leaves open that the suite notes
 * without a basis to prefer one side: never a warning, never a failure, `--strict` included.
 */
export type Level = 'required' | 'advice' | 'info';

/**
 * How a case ended: `warned` is an advice case not followed (outside `--strict`); `info` is an information case
 * whose noted preference was not taken (never a failure); `notApplicable` is a case whose control request did not
 * succeed, so its checks could not mean anything (a refusal of an invalid value from a server that refuses every
 * value proves nothing).
 */
export type Outcome = 'passed' | 'failed' | 'warned' | 'info' | 'skipped' | 'notApplicable';

/** One check of one response: a failed check is data, never a throw. */
export interface CheckResult {
  name: string;
  ok: boolean;
  message: string;
  /** Extra lines, such as ajv errors with instance paths. */
  details?: string[];
  /** Set on a failed check that fails its case whatever the case's level (a 5xx is a required failure anywhere). */
  required?: true;
  /** The request variation it judged, in words: `categoryId 9223372036854779904, beyond int64's largest value (…)`. */
  variation?: string;
  /**
   * The rule of the contract the request broke, in words (`status is a boolean`): a server that accepts requests
   * breaking two rules has two causes, each with its own request, though the status it answered is the same.
   */
  rule?: string;
  /** Information, not a verdict on the server (how a generated failure repeated): `ok`, and drawn as neither. */
  info?: true;
}

/**
 * Which credentials a request carries: the run's key as `Bearer`, none, the key
 * with the Basic scheme, the key with a lower-case `bearer`, the key under `xbearer`, the key alone with no scheme,
 * the key after `Bearer:` with no space, or a literal `Authorization` value.
 */
export type AuthMode =
  | 'key'
  | 'none'
  | 'basic'
  | 'lowercase'
  | 'prefixedScheme'
  | 'bare'
  | 'colon'
  | { authorization: string }
  | { nearKey: NearKey };

/** A request as a case describes it; `path` is relative to the base URL (`/pets?limit=1`). */
export interface CaseRequest {
  method: 'GET' | 'POST';
  path: string;
  auth?: AuthMode;
  body?: string;
  /** `null` sends no Content-Type header; bodies default to `application/json`. */
  contentType?: string | null;
  /** The target in absolute form (`GET http://host/v1/pets HTTP/1.1`, RFC 9112 §3.2.2), not origin form. */
  absoluteForm?: true;
}

/** The request as it went out; the credentials of its Authorization header are never kept. */
export interface ExchangeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The target went out in absolute form (the whole `url`), not origin form. */
  absoluteForm?: true;
}

/** The response as received (the checks read it whole; a report hides the key in it). */
export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  /** Body text (at most the size cap). */
  body: string;
  /** Bytes of the body read (the cap, when the body was longer and cut there). */
  bytes: number;
  /** The parsed body, when it parsed as JSON. */
  json?: unknown;
  /** Why the body did not parse as JSON (absent when it did, or when it was empty). */
  jsonError?: string;
  /**
   * Set when the body was cut to what a report shows after its checks had read it whole (`bytes` is still the
   * size read); its parsed JSON is then not kept.
   */
  bodyCut?: true;
}

/** One request and what came back, or why nothing usable came back. */
export interface Exchange {
  request: ExchangeRequest;
  response?: ExchangeResponse;
  /** Set when the exchange failed: timeout, reset, garbage, a body over the cap. */
  error?: { code: string; message: string };
  durationMs: number;
  /** Set when the server asked the suite to wait (429, 503 with Retry-After) and it retried. */
  retries?: { count: number; waitedMs: number };
}

/** The kinds of animal a run creates, at most one of each. */
export type CreatedKind = PetStatus | 'noStatus';

/** An animal a 2xx answer to `POST /pets` created: its id, the body sent (when short enough to keep), the request. */
export interface CreatedRecord {
  id: number;
  sent?: string;
  /** The fields the 2xx answered (`name`, `categoryId`, `status`, as parsed). */
  answered: Record<string, unknown>;
  /** `POST <url>` as sent. */
  request: string;
  /** Which create of the run it was (1 for the first 2xx). */
  order: number;
}

/** A create made once per run and shared by the cases that need it. */
export interface Creation {
  exchange: Exchange;
  sent: { name: string; categoryId: number; status?: PetStatus };
  /**
   * The animal created, when the server answered 2xx with an integer `id`: the Pet it answered, or, when the answer
   * is not a valid Pet, the fields as sent with that id (the createPet cases judge the answer, so one wrong field
   * costs no later check its id).
   */
  pet?: Pet;
  /** When there is no `pet`: what was missing, in words (`POST /pets answered 500, not a 2xx`). */
  missing?: string;
}

/** What a case can do: send requests, record checks, skip, and use the run's shared animals. */
export interface CaseContext {
  readonly runId: string;
  readonly strict: boolean;
  readonly readOnly: boolean;
  /** The kinds of near key (one edit from the run's key) that the key has; a case never sees the key itself. */
  readonly nearKeys: readonly NearKey[];
  /** `conformance-<runId>-<suffix>`: the name of everything the run creates. */
  name(suffix: string): string;
  send(request: CaseRequest): Promise<Exchange>;
  /**
   * Sends `request` unless the run already did, and records the one exchange in this case too: for a request two
   * cases judge by different rules from the same answer (a GET, or a request the server must refuse), never for one
   * whose answer depends on what the case did before it.
   */
  sendOnce(request: CaseRequest): Promise<Exchange>;
  check(...results: CheckResult[]): void;
  skip(reason: string): void;
  /**
   * Sends the case's control request (once per run, shared by the cases with the same control; `creation` is the
   * run's shared create) and returns whether it got one of `statuses`. When it did not, the case is not applicable
   * because of `why` (the control's exchange joins the case's, so a 5xx there still fails it), and should stop.
   */
  control(request: CaseRequest | { creation: CreatedKind }, statuses: readonly number[], why: string): Promise<boolean>;
  /** The id of an animal known to exist (the shared create's, or a listed one in read-only mode), recording nothing. */
  knownPetId(): Promise<number | undefined>;
  /** Marks the case not applicable (its control failed), with the reason. */
  notApplicable(reason: string): void;
  /** The run's shared create of `kind` (made once), recorded in this case. */
  creation(kind: CreatedKind): Promise<Creation>;
  /** An existing animal: the shared created one, or one from the list in read-only mode; skips the case when there is none. */
  existingPet(): Promise<Pet | undefined>;
  /** The shared listing's first animal with a safe id (no request of its own); skips the case when there is none. */
  listedPet(): Promise<Pet | undefined>;
  /** A category id to create animals with: one seen in the list, else 1. */
  categoryId(): Promise<number>;
  /** The animals the run created so far (2xx to `POST /pets` with a safe integer id), in order, bounded. */
  created(): readonly CreatedRecord[];
}

/** One conformance case. */
export interface Case {
  /** Stable id, e.g. `listPets.limit.max`. */
  id: string;
  title: string;
  level: Level;
  /** The interface section it checks, e.g. `Endpoints §1 List animals`. */
  section: string;
  /** What an advice case rests on: an RFC section, or the contract's text (every advice case has one). */
  basis?: string;
  /**
   * Advice that `--strict` leaves a warning: what it advises against is something the contract allows (a JSON body
   * parsed whatever its media type), so no strictness makes it a failure.
   */
  warnOnly?: true;
  operationId: string;
  /** Statuses documented in the spec for `operationId` that this case expects to exercise (the status table shows what it did get). */
  covers: number[];
  /** True when a (broken) server could create an animal because of it. */
  writes: boolean;
  /** Runs after every other case and the generated requests (it reads back what they created). */
  last?: true;
  /**
   * Runs after the other fixed cases and before the generated requests, one such case at a time, with nothing else
   * sent meanwhile: its requests see no write between them.
   */
  alone?: true;
  run(ctx: CaseContext): Promise<void>;
}

/** The result of one case: the case's description, what came of it, and what was exchanged. */
export interface CaseResult
  extends Pick<Case, 'id' | 'title' | 'level' | 'section' | 'basis' | 'operationId' | 'covers'> {
  outcome: Outcome;
  /** Why it was skipped or failed, in one line. */
  reason?: string;
  checks: CheckResult[];
  exchanges: Exchange[];
  durationMs: number;
  /** For a failed case, the id of the cause it is grouped under (`report.causes`). */
  cause?: string;
  /** For a failed case that fails only because of an earlier cause (an invalid animal it let in): what and which. */
  consequence?: string;
  /** For a finding of recorded traffic: whose it is. */
  side?: Side;
}

/** Whose a finding of recorded traffic is: the client's request, the server's answer, or what entries show together. */
export type Side = 'client' | 'server' | 'across';

/** What the server does wrong, and the failed cases it explains (one finding per cause). */
export interface Cause {
  /** `C1`, `C2`, … in the order of importance. */
  id: string;
  /** What the grouping keyed on (operation, check, message shape). */
  key: string;
  /** One line: what the server does wrong. */
  statement: string;
  /** `required` when any case it explains is. */
  level: Level;
  /** The contract section of the first case it explains. */
  section: string;
  /** The failed cases it explains, the first one the example. */
  cases: string[];
  /** Later failed cases that fail only because of it (an invalid animal it let in, returned by a listing). */
  consequences?: string[];
  /** The request that shows it (its curl line in the reports). */
  request?: ExchangeRequest;
  /**
   * When the request's answer depends on data (a listing or a fetch of animals the run created): what state it
   * needs, and the creates that make it on a fresh server (their curl lines come first).
   */
  needs?: { state: string; setup: ExchangeRequest[] };
  /** For recorded traffic: whose finding it is. */
  side?: Side;
  /** For recorded traffic: the entries that show it (at most a few), with their time and page. */
  evidence?: { entry: string; time: string; page?: string }[];
}

/** One (operation, documented status) pair and the cases that exercised it. */
export interface StatusTableRow {
  operationId: string;
  method: string;
  path: string;
  status: number;
  /** Cases that got this status from this operation. */
  caseIds: string[];
  /** Cases that declare this status (`covers`), did not get it in this run, and failed. */
  declaredOnly: string[];
  /** Cases that declare this status but passed with another answer the interface allows (a 400 instead of a clamped 200). */
  answeredOtherwise: string[];
  /** Cases that declare this status and were not applicable (their control request failed). */
  notApplicable: string[];
  /** Generated requests (`--generate`) to this operation that got this status. */
  generated?: number;
  /** Recorded entries (judgeTraffic) to this operation that got this status. */
  recorded?: number;
}

/** Counts of outcomes. */
export interface Summary {
  passed: number;
  failed: number;
  warned: number;
  /** Information cases whose noted preference was not taken (never failures). */
  info: number;
  skipped: number;
  /** Cases whose control request failed, so nothing could be judged. */
  notApplicable: number;
  total: number;
}

/** How the run compared with a baseline of known failures. */
export interface BaselineResult {
  /** Failing now and listed in the baseline. */
  known: string[];
  /** Listed in the baseline and passing now. */
  fixed: string[];
  /** Failing now and not in the baseline. */
  unexpected: string[];
}

/** How a run is going, after each case. */
export interface Progress {
  done: number;
  total: number;
  failed: number;
}

/** The answers that asked the suite to wait (429, 503 with Retry-After): counted apart, never failures by themselves. */
export interface Throttling {
  /** Such answers, by status. */
  byStatus: Record<string, number>;
  /** Waited out and retried. */
  retried: number;
  /** Came when the wait budget could not cover them: their case failed with that reason. */
  exhausted: number;
  /** Wall-clock time spent waiting, and the budget. */
  waitedMs: number;
  maxWaitMs: number;
}

/** Everything a run found; the API key appears nowhere in it. */
export interface Report {
  tool: string;
  runId: string;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  options: { strict: boolean; readOnly: boolean; concurrency: number; timeoutMs: number };
  cases: CaseResult[];
  /** What the server does wrong, one finding per cause, most important first; each failed case names its own. */
  causes?: Cause[];
  /** Cases left out by `only`/`skip`. */
  deselected: number;
  summary: Summary;
  statusTable: StatusTableRow[];
  created: {
    count: number;
    ids: number[];
    namePrefix: string;
    /**
     * Animals counted although no 2xx answered their create: a listing or a fetch showed them under a name a create
     * of the run sent, and that create answered otherwise (`500`). Each named by that request.
     */
    unanswered?: { id: number; request: string; answered: string }[];
  };
  throttling: Throttling;
  baseline?: BaselineResult;
  /** The HTTP proxy the run went through (credentials hidden), and where it came from; absent when direct. */
  proxy?: { url: string; source: string };
  /** The seed of the run's generated requests (the same seed, the same requests). */
  seed: number;
  /** What `--generate` sent, when it was on. */
  generation?: GenerationSummary;
  /** What a judgement of recorded traffic read (judgeTraffic), when it was one. */
  traffic?: TrafficSummary;
  /** Every exchange in the order sent, when the run was asked to keep them (`exchangeLog`). */
  exchangeLog?: ExchangeLog;
  /** True when no case failed (outside the baseline, if one was given) and the run could judge what it was asked to. */
  ok: boolean;
  /** Why the run could not test all it was asked to (required cases throttled, or none judged): exit 2 when nothing failed. */
  incomplete?: string;
  /** What a read-only run did not check, in one line: the operations it sent nothing to, and how many cases that skipped. */
  notChecked?: string;
  /**
   * Set when the run ended before it had run everything (the target went away, every key was refused,
   * `maxTimeMs` passed): the error's code and line. What was judged before stands; the rest is skipped or absent.
   */
  ended?: { code: string; reason: string };
  /** Set when the run was one part of a split run (`shard`): which part, and a digest of the whole run's selection. */
  shard?: ShardInfo;
  /** Set on a report merged from the shards of one run (`petstore-conformance merge`): each shard's own facts. */
  merged?: { shards: MergedShard[] };
}

/** Which part of a split run this is: `current` of `total`, from 1. */
export interface Shard {
  current: number;
  total: number;
}

/** A shard as its report states it: the split, and a digest of what the whole run selected (seed included). */
export interface ShardInfo extends Shard {
  /** SHA-256 (16 hex digits) of the seed, the generated requests per operation and every selected id: shards of one run share it. */
  selection: string;
  /** Units split across every shard: fixed cases, and the generated checks as one. */
  units: number;
}

/** One shard of a merged report. */
export interface MergedShard {
  current: number;
  total: number;
  runId: string;
  startedAt: string;
  durationMs: number;
  /** The ids of the cases this shard ran, in its order. */
  caseIds: string[];
  ended?: { code: string; reason: string };
}

/** What the generated requests of a run (`--generate N`) amounted to. */
export interface GenerationSummary {
  seed: number;
  /** N: the generated requests each operation was given. */
  requestsPerOperation: number;
  /** Generated requests sent per operation, reads right after a create and shrinking included. */
  sent: Record<string, number>;
  /** Of those, the requests sent while shrinking failures. */
  shrinkRequests: number;
  /** Of those, the requests sent replaying each failure before it was shrunk (or found intermittent). */
  replayRequests: number;
  /** Times each failure's sequence is replayed, and what shrinking one failure may spend. */
  replays: number;
  shrinkBudget: { requests: number; seconds: number };
  /** Generated values not sent, and why (a name that cannot carry the run prefix). */
  skipped: { reason: string; count: number }[];
  /** Animals the generated requests created. */
  created: number;
  /** Only reads were generated. */
  readOnly: boolean;
}

/** One exchange of a run's log (each attempt on the wire), with the wall-clock time it started. */
export interface LoggedExchange extends Exchange {
  startedAt: string;
  /** The cases whose report shows this exchange (none for the first request and most generated ones). */
  cases?: string[];
  /** Set when the server asked the suite to wait (429, 503 with Retry-After) and the request was sent again. */
  retried?: true;
  /** Set when its bodies were not kept: the log's byte budget was spent. */
  bodiesOmitted?: true;
}

/** Every exchange of a run on the wire, retried ones included, in the order started (the `exchangeLog` option; the har reporter writes it). */
export interface ExchangeLog {
  exchanges: LoggedExchange[];
  /** Exchanges sent but not kept: the log's entry bound was reached. */
  omitted: number;
  /** The bounds: entries kept, and bytes of bodies kept. */
  maxEntries: number;
  maxBodyBytes: number;
}

/** What a judgement of recorded traffic (HAR files) read, judged and left aside. */
export interface TrafficSummary {
  files: string[];
  /** Entries read in all files. */
  entries: number;
  /** Entries to an operation of the contract under the base URL that got an answer: judged. */
  judged: number;
  /** Entries that never got an answer (status 0, blocked, cancelled), by reason: counted, not judged. */
  unanswered: Record<string, number>;
  /** Entries outside the base URL, by host: counted, not judged. */
  outside: Record<string, number>;
  /** Entries under the base URL that are no operation of the contract (a CORS preflight, an unknown path), by `METHOD path`. */
  notOperations: Record<string, number>;
  /** Judged entries whose request or response body was not recorded (their body checks were not judged). */
  bodiesNotRecorded: number;
  /** Whose findings fail the run (`--side`): both, or one. */
  side: 'both' | 'client' | 'server';
  /** Results counted but not listed (the report lists at most a bounded number). */
  resultsOmitted: number;
  /** `operationId status` pairs the contract documents that the traffic exercised, and those it never did. */
  coverage: { exercised: string[]; never: string[]; undocumented: string[] };
  /** The date getPet's sunset was judged at (`--as-of`), when given. */
  asOf?: string;
}
