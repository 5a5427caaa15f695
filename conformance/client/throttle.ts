/**
 * Being polite to a staging server: `--rate N` spaces the suite's requests
 * out, and a 429 (or a 503 with `Retry-After`) is waited out and retried
 * while the run's wait budget (`--max-wait`, a minute by default) lasts. The
 * budget counts wall-clock time in which at least one request is held back,
 * so eight requests told to wait the same second spend one second of it.
 */

import { EXCHANGE_ERROR_CODES } from '../errors.ts';
import { formatDuration } from './duration.ts';

/** The error code of an exchange that met a 429/503 after the wait budget was spent: throttled, not judged. */
export const RATE_LIMITED = EXCHANGE_ERROR_CODES.rateLimited;

/** Options of {@link createThrottle}. */
export interface ThrottleOptions {
  /** Wall-clock time the run may spend waiting on Retry-After, in all (default 60000). */
  maxWaitMs?: number;
  /** At most this many requests start per second (default: no cap). */
  ratePerSecond?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** What the throttle saw, for the report. */
export interface ThrottleStats {
  /** Answers that asked the suite to wait (429, or 503 with Retry-After), by status. */
  byStatus: Record<string, number>;
  /** Of those, how many were waited out and retried. */
  retried: number;
  /** Of those, how many came when the budget could not cover the wait (their case fails with that reason). */
  exhausted: number;
  /** Wall-clock time spent waiting on Retry-After. */
  waitedMs: number;
  maxWaitMs: number;
}

/** What to do about one answer: nothing, wait and retry, or give up with a reason. */
export type ThrottleDecision = { retryInMs: number } | { exhausted: string } | undefined;

/** Spaces requests and rules on 429/503 answers. */
export interface Throttle {
  /** Resolves when the next request may start under the rate cap. */
  turn(): Promise<void>;
  /** Rules on an answer with `status` and its `Retry-After` value; `attempt` counts earlier retries of the same request. */
  decide(status: number, retryAfter: string | undefined, attempt: number): ThrottleDecision;
  readonly stats: ThrottleStats;
}

/** Retries of one request, whatever the budget: a server answering `Retry-After: 0` forever must not hold the run. */
const MAX_RETRIES = 20;
/** A 429 without Retry-After waits this long; a `Retry-After: 0` at least the minimum. */
const DEFAULT_WAIT_MS = 1000;
const MIN_WAIT_MS = 50;

/** Milliseconds a Retry-After value asks for (delay-seconds or an HTTP-date), or undefined when it is neither. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Budget {
  stats: ThrottleStats;
  /** When the latest wait granted so far ends. */
  horizon: number;
}

function giveUp(b: Budget, status: number, reason: string): ThrottleDecision {
  b.stats.exhausted++;
  return { exhausted: `${status}: ${reason}` };
}

/** Rules on one answer at time `t` (see Throttle.decide). */
function decideAt(
  b: Budget,
  t: number,
  status: number,
  retryAfter: string | undefined,
  attempt: number,
): ThrottleDecision {
  const asked = retryAfterMs(retryAfter, t);
  if (status !== 429 && !(status === 503 && asked !== undefined)) return undefined;
  b.stats.byStatus[status] = (b.stats.byStatus[status] ?? 0) + 1;
  const wait = Math.max(MIN_WAIT_MS, asked ?? DEFAULT_WAIT_MS);
  const said = retryAfter === undefined ? 'no Retry-After' : `Retry-After: ${retryAfter.trim()}`;
  if (attempt >= MAX_RETRIES) return giveUp(b, status, `still asked to wait (${said}) after ${MAX_RETRIES} retries`);
  const added = Math.max(0, t + wait - Math.max(t, b.horizon));
  const { maxWaitMs } = b.stats;
  if (b.stats.waitedMs + added > maxWaitMs) {
    const left = Math.max(0, maxWaitMs - b.stats.waitedMs);
    return giveUp(
      b,
      status,
      `the server asked the suite to wait (${said}) and the wait budget (--max-wait ${formatDuration(maxWaitMs)}) ` +
        `has ${formatDuration(left)} left`,
    );
  }
  b.stats.waitedMs += added;
  b.horizon = Math.max(b.horizon, t + wait);
  b.stats.retried++;
  return { retryInMs: wait };
}

/** Makes the throttle of one run. */
export function createThrottle(options: ThrottleOptions = {}): Throttle {
  const now = options.now ?? Date.now;
  const spacing = options.ratePerSecond ? 1000 / options.ratePerSecond : 0;
  const budget: Budget = {
    stats: { byStatus: {}, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: options.maxWaitMs ?? 60_000 },
    horizon: 0,
  };
  let nextSlot = 0;
  return {
    stats: budget.stats,
    async turn() {
      if (spacing === 0) return;
      const t = now();
      const slot = Math.max(t, nextSlot);
      nextSlot = slot + spacing;
      if (slot > t) await sleep(slot - t);
    },
    decide: (status, retryAfter, attempt) => decideAt(budget, now(), status, retryAfter, attempt),
  };
}
