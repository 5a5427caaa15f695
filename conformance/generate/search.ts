/**
 * The search: rounds of fast-check runs over generated sequences, each round
 * seeded from the run's seed, until every operation has spent its budget.
 * The first failure of a check not yet found is shrunk (fast-check's
 * shrinking, judged on that same check only) to the fewest, smallest
 * requests that still fail it; the next round goes on looking for others.
 */

import fc from 'fast-check';
import { PROXY_ANSWERED } from '../client/proxy.ts';
import { RATE_LIMITED } from '../client/throttle.ts';
import { EXCHANGE_ERROR_CODES } from '../errors.ts';
import { acceptedIdentity } from '../judge/consequences.ts';
import type { CaseRequest, Exchange } from '../types.ts';
import type { Finding } from './checks.ts';
import {
  type CommandContext,
  type Execution,
  type GeneratedOperation,
  type Sequence,
  sequenceArb,
} from './commands.ts';

/**
 * A failure found, replayed and (when it reproduced every time) shrunk: the failing check and the requests of the
 * smallest sequence that still fails it, or, for an intermittent one, the requests that got it.
 */
export interface Failure {
  finding: Finding;
  exchanges: Exchange[];
  /** Shrinking steps fast-check took (0 for an intermittent failure, which is not shrunk). */
  shrinks: number;
  /** How often the same sequence failed the same check again when replayed. */
  replays: { failed: number; of: number };
  /** What shrinking spent, and whether it stopped at the budget with the best so far. */
  shrinking?: { requests: number; ms: number; stoppedAtBudget: boolean };
}

/** Options of {@link search}. */
interface SearchOptions {
  seed: number;
  /** Generated requests per operation. */
  requests: number;
  /** Operations that get generated requests. */
  operations: ReadonlySet<GeneratedOperation>;
  readOnly: boolean;
  strict: boolean;
  prefix: string | undefined;
  existing: readonly number[];
  /** Ids the fixed cases' creates got. */
  fixedIds: readonly number[];
  /** Whether a check id is selected (`only`/`skip`). */
  selected(id: string): boolean;
  /** Sends one request (the client's send). */
  send(request: CaseRequest): Promise<Exchange>;
  /** True once the run has ended: what was found stands, nothing more is sent. */
  ended(): boolean;
}

/** What the search found and spent. */
export interface SearchResult {
  /** Each distinct failure by {@link failureKey}: a check may have several, one per rule broken. */
  failures: Map<string, Failure>;
  /** The first example of each advice or information check not followed. */
  advice: Map<string, { finding: Finding; exchanges: Exchange[] }>;
  /** How many times each check held, and failed, while searching. */
  held: Map<string, number>;
  failedCount: Map<string, number>;
  /** Requests per operation (all of them), per `operation status`, and those sent while shrinking. */
  sent: Record<GeneratedOperation, number>;
  statuses: Map<string, number>;
  shrinkRequests: number;
  /** Requests sent replaying failures before shrinking them. */
  replayRequests: number;
  skipped: Map<string, number>;
  /** Sequences that met a 429/503 past the wait budget and so judged nothing, and the first such answer. */
  throttled: number;
  firstThrottled?: string;
  /** Sequences the run's proxy answered a request of itself, and so judged nothing, and the first such answer. */
  proxied: number;
  firstProxied?: string;
  /** What the server created from generated invalid bodies (`id 7`, or its JSON when it has no id). */
  letIn: Set<string>;
}

/**
 * What tells two failures of one check apart: the check and the rule its request broke (`status is a boolean`, `the
 * body is not UTF-8`). Each distinct one is replayed, shrunk and reported on its own, so the first hides no other.
 */
function failureKey(f: Finding): string {
  return f.result.rule === undefined ? f.id : `${f.id} (${f.result.rule})`;
}

const RUNS_PER_ROUND = 100;
const MAX_ROUNDS = 200;
/** Each failure's sequence is sent again this many times before it is shrunk: a flaky server is told apart. */
export const REPLAYS = 3;
/**
 * What shrinking one failure may spend, requests and time: past either, the smallest failure so far stands
 * (the report says so).
 */
export const SHRINK_BUDGET = { requests: 400, ms: 20_000 };
const MAX_COMMANDS = 12;

function roundSeed(seed: number, round: number): number {
  return (seed + Math.imul(round, 0x9e3779b1)) | 0;
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function emptyResult(): SearchResult {
  return {
    failures: new Map(),
    advice: new Map(),
    held: new Map(),
    failedCount: new Map(),
    sent: { listPets: 0, createPet: 0, getPet: 0 },
    statuses: new Map(),
    shrinkRequests: 0,
    replayRequests: 0,
    skipped: new Map(),
    throttled: 0,
    proxied: 0,
    letIn: new Set(),
  };
}

/**
 * The commands' context: while a failure is replayed or shrunk (`shrinking()`), budgets are not spent and skips not
 * counted; the requests are counted as replays while `replaying()`, else as shrinking.
 */
function commandContext(
  o: SearchOptions,
  r: SearchResult,
  budget: Record<GeneratedOperation, number>,
  shrinking: () => boolean,
  replaying: () => boolean,
): CommandContext {
  return {
    strict: o.strict,
    prefix: o.prefix,
    existing: o.existing,
    runCreated: [],
    fixedIds: new Set(o.fixedIds),
    allow: (op) => o.operations.has(op) && (shrinking() || budget[op] > 0),
    letIn: (ex) => {
      const stored = acceptedIdentity(ex);
      if (stored !== undefined) r.letIn.add(stored);
    },
    skipValue: (reason) => {
      if (!shrinking()) bump(r.skipped, reason);
    },
    async send(exec, op, request, primary) {
      if (primary && !shrinking()) budget[op]--;
      if (shrinking()) {
        if (replaying()) r.replayRequests++;
        else r.shrinkRequests++;
      }
      const ex = await o.send(request);
      r.sent[op]++;
      if (ex.response) bump(r.statuses, `${op} ${ex.response.status}`);
      exec.exchanges.push(ex);
      // Throttled past the budget: what follows in this sequence would be judged on a 429, so it stops here.
      if (ex.error?.code === RATE_LIMITED) {
        exec.throttled ??= ex.error.message;
        exec.stopped = true;
      }
      if (ex.error?.code === PROXY_ANSWERED) {
        exec.proxied ??= ex.error.message;
        exec.stopped = true;
      }
      return ex;
    },
  };
}

/** Runs the search; never throws for what a server does (a failure is data), only for a bug of its own. */
export async function search(o: SearchOptions): Promise<SearchResult> {
  const r = emptyResult();
  const budget: Record<GeneratedOperation, number> = { listPets: 0, createPet: 0, getPet: 0 };
  for (const op of o.operations) budget[op] = o.requests;
  const spent = (): boolean => [...o.operations].every((op) => budget[op] <= 0);
  let target: string | undefined;
  const wanted = (f: Finding): boolean =>
    !f.result.ok && (f.level === 'required' || o.strict) && o.selected(f.id) && !r.failures.has(failureKey(f));
  let replaying = false;
  const ctx = commandContext(
    o,
    r,
    budget,
    () => target !== undefined,
    () => replaying,
  );
  for (let round = 0; round < MAX_ROUNDS && !spent() && !o.ended(); round++) {
    const result = await searchRound(o, r, ctx, roundSeed(o.seed, round), {
      getTarget: () => target,
      setTarget: (id) => void (target = id),
      setReplaying: (on) => void (replaying = on),
      wanted,
      spent,
    });
    target = undefined;
    if (result === 'idle') break;
  }
  return r;
}

interface RoundState {
  getTarget(): string | undefined;
  setTarget(id: string | undefined): void;
  setReplaying(on: boolean): void;
  wanted(f: Finding): boolean;
  spent(): boolean;
}

function newExecution(state: RoundState): Execution {
  const exec: Execution = {
    exchanges: [],
    findings: [],
    stopped: false,
    judge(findings) {
      const on = exec.exchanges.at(-1);
      exec.findings.push(...findings.map((f) => (on === undefined || f.exchange ? f : { ...f, exchange: on })));
      const t = state.getTarget();
      if (findings.some((f) => (t === undefined ? state.wanted(f) : failureKey(f) === t && !f.result.ok)))
        exec.stopped = true;
    },
  };
  return exec;
}

function noteSearchFindings(r: SearchResult, exec: Execution): void {
  for (const f of exec.findings) {
    if (f.result.ok) bump(r.held, f.id);
    else {
      bump(r.failedCount, f.id);
      if (f.level !== 'required' && !r.advice.has(f.id))
        // The request that did not follow the advice, not the whole sequence that led to it.
        r.advice.set(f.id, { finding: f, exchanges: f.exchange ? [f.exchange] : [...exec.exchanges] });
    }
  }
}

/** What one round keeps between its candidate sequences. */
interface Round {
  /** The failure being shrunk, at the smallest sequence that still fails it so far. */
  last?: Failure;
  shrinkStarted: number;
  /** `r.shrinkRequests` when shrinking began. */
  shrinkFrom: number;
  stoppedAtBudget: boolean;
  /** Requests sent in the round, searching and shrinking (not replaying). */
  sent: number;
}

/** Sends one generated sequence through fast-check's model run; its requests and findings. */
async function runSequence(cmds: Sequence, state: RoundState): Promise<Execution> {
  const exec = newExecution(state);
  await fc.asyncModelRun(() => ({ model: { created: [], exec }, real: exec }), cmds);
  return exec;
}

/**
 * Sends a candidate sequence; undefined when it judged nothing: the run's end cut it short, or it was throttled past
 * the budget or answered by the proxy (never a failure, never shrunk; counted while searching, and a check nothing
 * else judged is reported 'not judged: throttled').
 */
async function sendCandidate(
  o: SearchOptions,
  r: SearchResult,
  state: RoundState,
  round: Round,
  cmds: Sequence,
): Promise<Execution | undefined> {
  const exec = await runSequence(cmds, state);
  round.sent += exec.exchanges.length;
  if (o.ended()) return undefined;
  const searching = state.getTarget() === undefined;
  if (exec.throttled !== undefined) {
    if (searching) {
      r.throttled++;
      r.firstThrottled ??= exec.throttled;
    }
    return undefined;
  }
  if (exec.proxied !== undefined) {
    if (searching) {
      r.proxied++;
      r.firstProxied ??= exec.proxied;
    }
    return undefined;
  }
  return exec;
}

/** Sends the sequence that failed `key` REPLAYS times more: how often it failed `key` again. */
async function replayFailure(o: SearchOptions, state: RoundState, cmds: Sequence, key: string) {
  state.setReplaying(true);
  let failed = 0;
  for (let i = 0; i < REPLAYS && !o.ended(); i++) {
    const again = await runSequence(cmds, state);
    if (
      again.throttled === undefined &&
      again.proxied === undefined &&
      again.findings.some((f) => failureKey(f) === key && !f.result.ok)
    )
      failed++;
  }
  state.setReplaying(false);
  return { failed, of: REPLAYS };
}

/**
 * Searching: sends a sequence and counts what it judged; false (a failure for fast-check to shrink) when it failed a
 * wanted check every time it was replayed. An intermittent failure is reported with the requests that got it, never
 * shrunk into a made-up sequence.
 */
async function searchCandidate(
  o: SearchOptions,
  r: SearchResult,
  state: RoundState,
  round: Round,
  cmds: Sequence,
): Promise<boolean> {
  if (state.spent() || o.ended()) return true;
  const exec = await sendCandidate(o, r, state, round, cmds);
  if (!exec) return true;
  noteSearchFindings(r, exec);
  const hit = exec.findings.find((f) => state.wanted(f));
  if (!hit) return true;
  const key = failureKey(hit);
  state.setTarget(key);
  const replays = await replayFailure(o, state, cmds, key);
  if (replays.failed < REPLAYS) {
    r.failures.set(key, { finding: hit, exchanges: exec.exchanges, shrinks: 0, replays });
    state.setTarget(undefined);
    return true;
  }
  round.shrinkStarted = performance.now();
  round.shrinkFrom = r.shrinkRequests;
  round.last = { finding: hit, exchanges: exec.exchanges, shrinks: 0, replays };
  return false;
}

/** Shrinking: false when a smaller candidate still fails the failure `target`, which it then becomes. */
async function shrinkCandidate(
  o: SearchOptions,
  r: SearchResult,
  state: RoundState,
  round: Round,
  cmds: Sequence,
  target: string,
): Promise<boolean> {
  if (o.ended()) return true;
  // Past the budget, every further candidate counts as passing, so shrinking ends on the smallest failure so far.
  if (
    r.shrinkRequests - round.shrinkFrom >= SHRINK_BUDGET.requests ||
    performance.now() - round.shrinkStarted > SHRINK_BUDGET.ms
  ) {
    round.stoppedAtBudget = true;
    return true;
  }
  const exec = await sendCandidate(o, r, state, round, cmds);
  const hit = exec?.findings.find((f) => failureKey(f) === target && !f.result.ok);
  if (!exec || !hit) return true;
  round.last = { ...round.last!, finding: hit, exchanges: exec.exchanges };
  return false;
}

/** One fast-check run of up to RUNS_PER_ROUND sequences: `idle` when nothing could be sent at all. */
async function searchRound(
  o: SearchOptions,
  r: SearchResult,
  ctx: CommandContext,
  seed: number,
  state: RoundState,
): Promise<'idle' | 'done'> {
  const round: Round = { shrinkStarted: 0, shrinkFrom: 0, stoppedAtBudget: false, sent: 0 };
  const property = fc.asyncProperty(sequenceArb({ ctx, readOnly: o.readOnly, maxCommands: MAX_COMMANDS }), (cmds) => {
    const target = state.getTarget();
    return target === undefined
      ? searchCandidate(o, r, state, round, cmds)
      : shrinkCandidate(o, r, state, round, cmds, target);
  });
  const details = await fc.check(property, { seed, numRuns: RUNS_PER_ROUND });
  const { last } = round;
  // A server's answer never throws (failures are findings): this is a bug of the generator itself.
  if (details.failed && !last)
    throw Object.assign(new Error(`a generated sequence threw: ${String(details.errorInstance)}`), {
      code: EXCHANGE_ERROR_CODES.generationBug,
    });
  if (last)
    r.failures.set(failureKey(last.finding), {
      ...last,
      shrinks: details.numShrinks,
      shrinking: {
        requests: r.shrinkRequests - round.shrinkFrom,
        ms: performance.now() - round.shrinkStarted,
        stoppedAtBudget: round.stoppedAtBudget,
      },
    });
  return round.sent === 0 && !details.failed ? 'idle' : 'done';
}
