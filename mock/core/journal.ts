/**
 * The request journal: the last N API requests, oldest first, with what the
 * mock answered. The Authorization header, and every configured key wherever
 * it appears, is replaced by `[REDACTED]` before anything is kept.
 * @see ../../docs/mock.md "Request journal"
 */
import { type Applied, type Layer, matchesPath } from './layers.ts';
import type { ApiRequest, Fault } from './responses.ts';

/** How many requests the journal keeps unless told otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1_000;
/** The largest journal size accepted. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Characters of a request body kept; the rest is dropped and `bodyTruncated` set. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
/** What a redacted value reads as. */
export const REDACTED = '[REDACTED]';

/** One API request as recorded. */
export interface JournalEntry {
  /** Sequence number since the mock started (never reused, even after a clear). */
  seq: number;
  /** When it arrived, ISO 8601. */
  at: string;
  method: string;
  /** The path, without the query. */
  path: string;
  /** Query parameters, decoded; a parameter sent twice is an array. */
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[]>;
  /** The body as text (UTF-8), at most {@link JOURNAL_BODY_LIMIT} characters. */
  body?: string;
  bodyTruncated?: boolean;
  /** The status answered; null when a fault sent none. */
  status: number | null;
  fault?: Fault;
  durationMs: number;
  applied: Applied;
}

/** Which entries {@link Journal.list} returns: `path` exact or a template (`/v1/pets/{petId}`). */
export interface JournalFilter {
  method?: string;
  path?: string;
}

/** A bounded journal. */
export interface Journal {
  readonly size: number;
  record(entry: Omit<JournalEntry, 'seq'>): void;
  list(filter?: JournalFilter): JournalEntry[];
  clear(): void;
}

/** A journal keeping the last `capacity` entries (0 keeps none) in a ring, so memory stays flat. */
export function createJournal(capacity: number = DEFAULT_JOURNAL_SIZE): Journal {
  if (!Number.isSafeInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL_SIZE)
    throw new RangeError(`journal size must be an integer from 0 to ${MAX_JOURNAL_SIZE}, got ${capacity}`);
  let ring: JournalEntry[] = [];
  let start = 0;
  let seq = 0;
  return {
    get size() {
      return ring.length;
    },
    record(entry) {
      seq++;
      if (capacity === 0) return;
      if (ring.length < capacity) ring.push({ seq, ...entry });
      else {
        ring[start] = { seq, ...entry };
        start = (start + 1) % capacity;
      }
    },
    list(filter = {}) {
      const ordered = [...ring.slice(start), ...ring.slice(0, start)];
      const method = filter.method?.toUpperCase();
      return ordered.filter(
        (e) =>
          (method === undefined || e.method === method) &&
          (filter.path === undefined || matchesPath(filter.path, e.path)),
      );
    },
    clear() {
      ring = [];
      start = 0;
    },
  };
}

/** Replaces every key in `text`, raw or percent-encoded, with {@link REDACTED}. */
export function redactText(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) {
    if (key === '') continue;
    for (const spelling of new Set([key, encodeURIComponent(key)])) {
      if (out.includes(spelling)) out = out.split(spelling).join(REDACTED);
    }
  }
  return out;
}

/** The headers to keep: Authorization always redacted, and every key redacted wherever it appears. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  keys: readonly string[],
): Record<string, string | string[]> {
  // Entries, not assignments: a header named `__proto__` must stay a plain field.
  const out: [string, string | string[]][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === 'authorization' || name === 'proxy-authorization') out.push([name, REDACTED]);
    else out.push([name, Array.isArray(value) ? value.map((v) => redactText(v, keys)) : redactText(value, keys)]);
  }
  return Object.fromEntries(out);
}

/** Decoded query parameters, keys redacted in names and values. */
export function redactQuery(query: string, keys: readonly string[]): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [rawName, rawValue] of new URLSearchParams(query)) {
    const name = redactText(rawName, keys);
    const value = redactText(rawValue, keys);
    const had = out.get(name);
    out.set(name, had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]);
  }
  return Object.fromEntries(out);
}

/** Records every API request and its answer (a fault included) in `journal`, keys redacted. */
export function journalLayer(journal: Journal, keys: readonly string[]): Layer {
  return async (context, next) => {
    if (!context.api) return next(context);
    const started = performance.now();
    const at = new Date().toISOString();
    const response = await next(context);
    const { request } = context;
    const sent = response.fault === undefined || response.fault === 'truncated';
    journal.record({
      at,
      method: request.method,
      path: redactText(context.path, keys),
      query: redactQuery(context.query, keys),
      headers: redactHeaders(request.headers, keys),
      ...bodyOf(request, keys),
      status: sent ? response.status : null,
      ...(response.fault === undefined ? {} : { fault: response.fault }),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      applied: context.applied,
    });
    return response;
  };
}

const lenient = new TextDecoder('utf-8');

function bodyOf(request: ApiRequest, keys: readonly string[]): Pick<JournalEntry, 'body' | 'bodyTruncated'> {
  if (request.bodyTooLarge) return { bodyTruncated: true };
  if (request.body === undefined || request.body.length === 0) return {};
  const text = typeof request.body === 'string' ? request.body : lenient.decode(request.body);
  // Redacted before it is cut, so a key across the cut cannot leave half of itself behind.
  const redacted = redactText(text, keys);
  if (redacted.length <= JOURNAL_BODY_LIMIT) return { body: redacted };
  return { body: redacted.slice(0, JOURNAL_BODY_LIMIT), bodyTruncated: true };
}
