/**
 * The whole-mock behaviour options (latency, rate limit, chaos, journal
 * size), checked once, with the parsers the command shares.
 * @see ../../docs/mock.md "Flags"
 */
import { typeOf, unknownOptions } from '../../guard/options.ts';
import { checkCount, checkSeed } from './default-pets.ts';
import { badOption } from './errors.ts';
import { MAX_JOURNAL_BYTES, MAX_JOURNAL_SIZE } from './journal.ts';
import { MAX_DELAY_MS } from './prefer.ts';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, MAX_SESSIONS, type SessionOptions } from './sessions.ts';
import { DEFAULT_STORE_BYTES, MAX_STORE_BYTES } from './store.ts';

/** A fixed latency in ms, or a range drawn from (seeded) on every API answer. */
export type Latency = number | { min: number; max: number };

function check(ok: boolean, option: string, problem: string): void {
  if (!ok) throw badOption(option, problem);
}

function isMs(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_DELAY_MS;
}

/** Throws unless `value` is undefined or of the JavaScript type `type`. */
export function checkType(name: string, value: unknown, type: 'boolean' | 'function' | 'object' | 'string'): void {
  check(
    value === undefined || (typeof value === type && value !== null),
    name,
    `must be a ${type}, got ${typeOf(value)}`,
  );
}

/** `asOf` as a Date: a Date, or an ISO 8601 date (`2030-12-05`) or date-time; a PetstoreMockError (`..._BAD_OPTION`) otherwise. */
export function asOfDate(value: unknown): Date {
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value)
        ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value)
        : undefined;
  const valid = date !== undefined && !Number.isNaN(date.getTime());
  // A string that parses but is not the date written (2030-02-30 becomes 2 March) is refused too.
  const exact = !valid || typeof value !== 'string' || value.length !== 10 || date.toISOString().startsWith(value);
  check(valid && exact, 'asOf', `must be a date such as 2030-12-05, got ${JSON.stringify(value)}`);
  return date!;
}

/** `options` when it is an object, `{}` when undefined; a PetstoreMockError otherwise (an adapter splits it next). */
export function optionsObject<T extends object>(options: T | undefined): T {
  check(
    options === undefined || (typeof options === 'object' && options !== null && !Array.isArray(options)),
    'options',
    `must be an object, got ${typeOf(options)}`,
  );
  return options ?? ({} as T);
}

/**
 * Throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) naming every key of `options` that is not in `known`, each
 * with the closest name of `known` and `alsoKnown` (an adapter's own options, taken out before): a typo
 * (`apikeys`) is never ignored in silence. `option` is the first unknown name.
 */
export function checkKnownOptions(options: object, known: Iterable<string>, alsoKnown: Iterable<string> = []): void {
  const unknown = unknownOptions(options, known, alsoKnown);
  if (unknown) throw Object.assign(badOption(unknown.option, unknown.problem), { message: unknown.message });
}

/** Throws a PetstoreMockError naming the first mock option (those of createMock) that the mock cannot use. */
export function checkMockOptions(options: unknown): void {
  const o = optionsObject(options as Record<string, unknown> | undefined);
  if (o.seed !== undefined) checkSeed(o.seed as number);
  if (o.count !== undefined) checkCount(o.count as number);
  checkType('cors', o.cors, 'boolean');
  checkType('now', o.now, 'function');
  if (o.asOf !== undefined) asOfDate(o.asOf);
  check(o.pets === undefined || Array.isArray(o.pets), 'pets', `must be an array of Pets, got ${typeOf(o.pets)}`);
  const keys = o.apiKeys;
  check(keys === undefined || Array.isArray(keys), 'apiKeys', `must be an array of strings, got ${typeOf(keys)}`);
  // A key a client could not send in `Authorization: Bearer <key>` would never match.
  for (const key of (keys as unknown[] | undefined) ?? [])
    check(
      typeof key === 'string' && /^[\x21-\x7e]{1,4096}$/.test(key),
      'apiKeys',
      'must be strings of 1 to 4096 visible ASCII characters (no spaces)',
    );
  const controlKey = o.controlKey;
  if (controlKey !== undefined) {
    check(
      typeof controlKey === 'string' && /^[\x21-\x7e]{16,4096}$/.test(controlKey),
      'controlKey',
      'must be a string of 16 to 4096 visible ASCII characters (no spaces): long enough not to be guessed',
    );
    check(
      !((keys as unknown[] | undefined) ?? []).includes(controlKey),
      'controlKey',
      'must differ from every API key: a client of the API must not be able to reset the mock',
    );
  }
}

/** Throws unless `latency` is in 0..60000 ms (and min ≤ max); returns it as a range. */
export function checkLatency(latency: Latency | undefined): { min: number; max: number } {
  check(
    latency === undefined || typeof latency === 'number' || (typeof latency === 'object' && latency !== null),
    'latency',
    `must be a number of ms or { min, max }, got ${typeOf(latency)}`,
  );
  const range = typeof latency === 'number' ? { min: latency, max: latency } : (latency ?? { min: 0, max: 0 });
  check(
    isMs(range.min) && isMs(range.max) && range.min <= range.max,
    'latency',
    `must be MS or MIN-MAX, whole milliseconds from 0 to ${MAX_DELAY_MS}, MIN at most MAX`,
  );
  return range;
}

/** Throws unless the rate limit is a positive integer (requests per second per key). */
export function checkRateLimit(perSecond: number | undefined): void {
  check(
    perSecond === undefined || (Number.isSafeInteger(perSecond) && perSecond >= 1 && perSecond <= 1_000_000),
    'rateLimit',
    'must be an integer from 1 to 1000000 (requests per second per key)',
  );
}

/** Throws unless chaos is a share from 0 to 1. */
export function checkChaos(rate: number | undefined): void {
  check(
    rate === undefined || (typeof rate === 'number' && rate >= 0 && rate <= 1),
    'chaos',
    'must be a number from 0 to 1',
  );
}

/** Throws unless the journal size is 0..100000. */
export function checkJournalSize(size: number | undefined): void {
  check(
    size === undefined || (Number.isSafeInteger(size) && size >= 0 && size <= MAX_JOURNAL_SIZE),
    'journalSize',
    `must be an integer from 0 to ${MAX_JOURNAL_SIZE}`,
  );
}

/** Throws unless the journal's byte budget is 0..1 GiB. */
export function checkJournalBytes(bytes: number | undefined): void {
  check(
    bytes === undefined || (Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_JOURNAL_BYTES),
    'journalBytes',
    `must be an integer from 0 to ${MAX_JOURNAL_BYTES}`,
  );
}

/** The store's byte budget: 0..64 GiB, default {@link DEFAULT_STORE_BYTES}. */
export function checkStoreBytes(bytes: number | undefined): number {
  check(
    bytes === undefined || (Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_STORE_BYTES),
    'storeBytes',
    `must be an integer from 0 to ${MAX_STORE_BYTES}`,
  );
  return bytes ?? DEFAULT_STORE_BYTES;
}

/** The sessions' bounds, defaults filled in: `max` 1..10000, `idleMs` 0..2^31-1 (0: never idle). */
export function checkSessions(sessions: SessionOptions | undefined): Required<SessionOptions> {
  check(
    sessions === undefined || (typeof sessions === 'object' && sessions !== null && !Array.isArray(sessions)),
    'sessions',
    `must be { max?, idleMs? }, got ${typeOf(sessions)}`,
  );
  checkKnownOptions(sessions ?? {}, ['max', 'idleMs']);
  const { max = DEFAULT_MAX_SESSIONS, idleMs = DEFAULT_SESSION_IDLE_MS } = sessions ?? {};
  check(
    Number.isSafeInteger(max) && max >= 1 && max <= MAX_SESSIONS,
    'sessions.max',
    `must be an integer from 1 to ${MAX_SESSIONS}`,
  );
  check(
    Number.isSafeInteger(idleMs) && idleMs >= 0 && idleMs <= 2 ** 31 - 1,
    'sessions.idleMs',
    'must be an integer of ms from 0 (never) to 2147483647',
  );
  return { max, idleMs };
}

/** `250` or `100-500` as a {@link Latency}; throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) on anything else. */
export function parseLatency(text: string): Latency {
  const match = /^\s*([0-9]{1,6})\s*(?:-\s*([0-9]{1,6})\s*)?$/.exec(text);
  check(match !== null, 'latency', `must be MS or MIN-MAX (like 200 or 100-500), got ${JSON.stringify(text)}`);
  const latency = match![2] === undefined ? Number(match![1]) : { min: Number(match![1]), max: Number(match![2]) };
  checkLatency(latency);
  return latency;
}
