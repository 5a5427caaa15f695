/**
 * The whole-mock behaviour options (latency, rate limit, chaos, journal
 * size), checked once, with the parsers the command shares.
 * @see ../../docs/mock.md "Flags"
 */
import { MAX_JOURNAL_BYTES, MAX_JOURNAL_SIZE } from './journal.ts';
import { MAX_DELAY_MS } from './prefer.ts';

/** A fixed latency in ms, or a range drawn from (seeded) on every API answer. */
export type Latency = number | { min: number; max: number };

/** Bad options for the mock; `code` is stable. */
export class MockOptionsError extends Error {
  readonly code = 'PETSTORE_MOCK_BAD_OPTIONS';
  constructor(message: string) {
    super(message);
    this.name = 'MockOptionsError';
  }
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new MockOptionsError(message);
}

function isMs(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_DELAY_MS;
}

/** Throws unless `latency` is in 0..60000 ms (and min ≤ max); returns it as a range. */
export function checkLatency(latency: Latency | undefined): { min: number; max: number } {
  const range = typeof latency === 'number' ? { min: latency, max: latency } : (latency ?? { min: 0, max: 0 });
  check(
    isMs(range.min) && isMs(range.max) && range.min <= range.max,
    `latency must be MS or MIN-MAX, whole milliseconds from 0 to ${MAX_DELAY_MS}, MIN at most MAX`,
  );
  return range;
}

/** Throws unless the rate limit is a positive integer (requests per second per key). */
export function checkRateLimit(perSecond: number | undefined): void {
  check(
    perSecond === undefined || (Number.isSafeInteger(perSecond) && perSecond >= 1 && perSecond <= 1_000_000),
    'rateLimit must be an integer from 1 to 1000000 (requests per second per key)',
  );
}

/** Throws unless chaos is a share from 0 to 1. */
export function checkChaos(rate: number | undefined): void {
  check(rate === undefined || (rate >= 0 && rate <= 1), 'chaos must be a number from 0 to 1');
}

/** Throws unless the journal size is 0..100000. */
export function checkJournalSize(size: number | undefined): void {
  check(
    size === undefined || (Number.isSafeInteger(size) && size >= 0 && size <= MAX_JOURNAL_SIZE),
    `journalSize must be an integer from 0 to ${MAX_JOURNAL_SIZE}`,
  );
}

/** Throws unless the journal's byte budget is 0..1 GiB. */
export function checkJournalBytes(bytes: number | undefined): void {
  check(
    bytes === undefined || (Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_JOURNAL_BYTES),
    `journalBytes must be an integer from 0 to ${MAX_JOURNAL_BYTES}`,
  );
}

/** `250` or `100-500` as a {@link Latency}; throws MockOptionsError on anything else. */
export function parseLatency(text: string): Latency {
  const match = /^\s*([0-9]{1,6})\s*(?:-\s*([0-9]{1,6})\s*)?$/.exec(text);
  check(match !== null, `latency must be MS or MIN-MAX (like 200 or 100-500), got ${JSON.stringify(text)}`);
  const latency = match![2] === undefined ? Number(match![1]) : { min: Number(match![1]), max: Number(match![2]) };
  checkLatency(latency);
  return latency;
}
