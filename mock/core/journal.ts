/**
 * The request journal: the last N API requests, oldest first, with what the
 * mock answered. The Authorization header, and every configured key wherever
 * it appears, is replaced by `[REDACTED]` in everything read from it.
 * @see ../../docs/mock.md "Request journal"
 */

import { REDACTED, redactKeys } from '../../guard/redact.ts';
import { canonicalPath, matchesTemplate } from '../../spec/match.ts';
import { badOption } from './errors.ts';
import { type Applied, anyApplied, type Layer, originForm, type RequestContext, splitTarget } from './layers.ts';
import type { ApiRequest, ApiResponse, Fault } from './responses.ts';

/** How many requests the journal keeps unless told otherwise. */
export const DEFAULT_JOURNAL_SIZE = 1_000;
/** The largest journal size accepted. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Bytes the journal keeps unless told otherwise: 8 MiB, so reading all of it stays quick. */
export const DEFAULT_JOURNAL_BYTES = 8 * 1024 * 1024;
/** The largest byte budget accepted: 1 GiB. */
export const MAX_JOURNAL_BYTES = 1024 * 1024 * 1024;
/** What an entry costs besides its path, query, headers and body: its numbers, strings and object headers, roughly. */
const ENTRY_OVERHEAD = 256;
/** Characters of a request body kept; the rest is dropped and `bodyTruncated` set. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
/** One API request as recorded. */
export interface JournalEntry {
  /** Sequence number since the mock started (never reused, even after a clear). */
  seq: number;
  /** When it arrived, ISO 8601. */
  at: string;
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The operation it addressed (`listPets`; `/v1/%70ets` is listPets too), absent for none. */
  operationId?: string;
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
  /** The client went away before the answer was sent (its timeout, an abort): it never read `status`. */
  abandoned?: true;
}

/**
 * Which entries {@link Journal.list} returns: `path` exact or a template (`/v1/pets/{petId}`), matched against each
 * request's path in its canonical spelling (`/v1/%70ets` is `/v1/pets`).
 */
export interface JournalFilter {
  method?: string;
  path?: string;
  /** Only entries after this sequence number (a page's last `seq`, to read the next page). */
  since?: number;
  /** At most this many entries (the oldest that match). */
  limit?: number;
}

/** One API request as taken in: what {@link JournalEntry} is made of, before redaction. */
export interface JournalRecord {
  /** When it arrived, ms since the epoch. */
  time: number;
  request: ApiRequest;
  /**
   * The request's path (origin form, without the query) and raw query, as the layers split them; made from the
   * request's URL when left out.
   */
  path?: string | undefined;
  query?: string | undefined;
  /**
   * The operation it addressed, and its path in canonical spelling (spec/match.ts), as the layers matched them;
   * the path may be left out when it is spelt as sent (the journal makes it again from the path when read).
   */
  operationId?: string | undefined;
  canonicalPath?: string | undefined;
  status: number | null;
  fault?: Fault;
  durationMs: number;
  applied: Applied;
}

/** A bounded journal. */
export interface Journal {
  readonly size: number;
  /**
   * Bytes held, as counted against the budget: characters of path, query (with its `?`, none for an empty query),
   * headers and body, plus a fixed overhead each.
   */
  readonly bytes: number;
  /** Entries dropped to make room (oldest first) since the mock started. */
  readonly dropped: number;
  record(entry: JournalRecord): void;
  /** {@link Journal.record} with the entry's fields as arguments: the layer's way in, one object fewer a request. */
  readonly write: Write;
  list(filter?: JournalFilter): JournalEntry[];
  clear(): void;
}

/** Options for {@link createJournal}. */
interface JournalOptions {
  /** Entries kept, oldest dropped first (0 keeps none). */
  capacity?: number;
  /** Bytes kept, oldest dropped first (default {@link DEFAULT_JOURNAL_BYTES}). */
  maxBytes?: number;
  /** The keys replaced by {@link REDACTED} wherever they appear. */
  keys: readonly string[];
}

/** The rarer parts of an entry, kept only when present (the body is a column of its own: see `bodies`). */
interface Extra {
  bodyTruncated?: boolean;
  /** True when the kept body is already redacted (a cut body is redacted before it is cut). */
  bodyRedacted?: boolean;
  fault?: Fault;
  applied?: Applied;
  abandoned?: true;
}

/**
 * A journal keeping the last `capacity` entries in a ring, so memory stays
 * flat. It keeps each request as it came, in parallel arrays (numbers in typed
 * arrays, the request's own headers object), and redacts when it is read: each
 * request costs a few stores, the reader pays for the rest. Nothing leaves the
 * journal unredacted. The headers object is kept, not copied: whoever hands a
 * request over must not change it afterwards (every adapter builds a fresh one
 * and calls `Mock.fetch`).
 */
export function createJournal({
  capacity = DEFAULT_JOURNAL_SIZE,
  maxBytes = DEFAULT_JOURNAL_BYTES,
  keys,
}: JournalOptions): Journal {
  checkJournalLimits(capacity, maxBytes);
  if (maxBytes === 0) capacity = 0;
  const ring = createRing(capacity);
  // Local names for the ring's columns: recording, the hot path, stores into them directly.
  const {
    seqs,
    times,
    durations,
    statuses,
    methods,
    paths,
    queries,
    headers,
    bodies,
    extras,
    operations,
    canonicals,
    costs,
  } = ring;
  let count = 0;
  let next = 0;
  let seq = 0;
  let bytes = 0;
  let dropped = 0;
  // The last entries' headers and the last body: a request that repeats them (a client sends the same few again and
  // again, often in turn: a read's headers, a create's) is kept with the objects already held, so what it brought
  // dies young. Kept, each request's strings and headers object would outlive the garbage collector's young
  // generation and be copied by it, once or twice. (The path and query of a target sent before mostly come from the
  // layers' memo of targets, strings already held; a session's by URL and a target over the memo's length are new.)
  // The headers last matched are compared first; a new set takes the oldest slot.
  const recentHeaders: ApiRequest['headers'][] = Array.from({ length: RECENT_HEADERS }, () => EMPTY);
  const recentFields: Fields[] = Array.from({ length: RECENT_HEADERS }, () => fieldsOf(EMPTY));
  let matched = 0;
  let oldest = 0;
  let lastBody = '';
  // Drops the oldest entry. When the ring is full that is the slot written next, whose columns the new entry
  // overwrites at once: only its bytes are given back (`reused`). Otherwise its objects are let go now.
  const dropOldest = (reused: boolean) => {
    const slot = reused ? next : (next - count + capacity) % capacity;
    bytes -= costs[slot]!;
    if (!reused) {
      paths[slot] = '';
      queries[slot] = '';
      headers[slot] = EMPTY;
      bodies[slot] = undefined;
      extras[slot] = undefined;
      canonicals[slot] = undefined;
    }
    count--;
    dropped++;
  };
  const write: Write = (time, request, path, query, operationId, canonical, status, fault, durationMs, applied) => {
    seq++;
    if (capacity === 0) return;
    if (path === undefined || query === undefined) ({ path, query } = splitTarget(originForm(request.url)));
    if (!sameFields(request.headers, recentFields[matched]!)) {
      let found = -1;
      for (let i = 0; i < RECENT_HEADERS; i++)
        if (i !== matched && sameFields(request.headers, recentFields[i]!)) {
          found = i;
          break;
        }
      if (found === -1) {
        found = oldest;
        oldest = oldest === RECENT_HEADERS - 1 ? 0 : oldest + 1;
        recentHeaders[found] = request.headers;
        recentFields[found] = fieldsOf(request.headers);
      }
      matched = found;
    }
    const fields = recentFields[matched]!;
    let extra = extraOf(request, fault, applied);
    let body: string | undefined;
    if (!request.bodyTooLarge && request.body !== undefined && request.body.length > 0) {
      const text = typeof request.body === 'string' ? request.body : lenient.decode(request.body);
      if (text.length <= JOURNAL_BODY_LIMIT) {
        // A body sent before is kept as the string already held: what this request brought dies young.
        if (text === lastBody) body = lastBody;
        else body = lastBody = text;
      } else {
        // Redacted before it is cut, so a key across the cut cannot leave half of itself behind.
        const whole = redactText(text, keys);
        body = copyOf(whole.slice(0, JOURNAL_BODY_LIMIT));
        extra = { ...extra, bodyTruncated: whole.length > JOURNAL_BODY_LIMIT, bodyRedacted: true };
      }
    }
    const target = path.length + (query === '' ? 0 : query.length + 1);
    const cost = ENTRY_OVERHEAD + target + fields.length + (body?.length ?? 0);
    if (count === capacity) dropOldest(true);
    while (count > 0 && bytes + cost > maxBytes) dropOldest(false);
    const slot = next;
    next = next + 1 === capacity ? 0 : next + 1;
    count++;
    costs[slot] = cost;
    bytes += cost;
    seqs[slot] = seq;
    times[slot] = time;
    durations[slot] = durationMs;
    statuses[slot] = status ?? -1;
    methods[slot] = request.method;
    paths[slot] = path;
    queries[slot] = query;
    headers[slot] = recentHeaders[matched]!;
    bodies[slot] = body;
    extras[slot] = extra;
    operations[slot] = operationId;
    canonicals[slot] = canonical;
  };
  return {
    get size() {
      return count;
    },
    get bytes() {
      return bytes;
    },
    get dropped() {
      return dropped;
    },
    record: ({ time, request, path, query, operationId, canonicalPath, status, fault, durationMs, applied }) =>
      write(time, request, path, query, operationId, canonicalPath, status, fault, durationMs, applied),
    write,
    list(filter = {}) {
      // The oldest kept entry's slot, then the next `count` slots around the ring.
      const first = (next - count + capacity) % capacity;
      return listEntries(ring, first, count, filter, keys);
    },
    clear() {
      count = 0;
      next = 0;
      bytes = 0;
      recentHeaders.fill(EMPTY);
      recentFields.fill(fieldsOf(EMPTY));
      matched = 0;
      oldest = 0;
      lastBody = '';
      methods.fill('');
      paths.fill('');
      queries.fill('');
      headers.fill(EMPTY);
      bodies.fill(undefined);
      extras.fill(undefined);
      operations.fill(undefined);
      canonicals.fill(undefined);
    },
  };
}

/** {@link Journal.record} with the entry's fields as arguments, in its order. */
type Write = (
  time: number,
  request: ApiRequest,
  path: string | undefined,
  query: string | undefined,
  operationId: string | undefined,
  canonicalPath: string | undefined,
  status: number | null,
  fault: Fault | undefined,
  durationMs: number,
  applied: Applied,
) => void;

/** Refuses a journal size or byte budget outside its bounds, naming the option. */
function checkJournalLimits(capacity: number, maxBytes: number): void {
  if (!Number.isSafeInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL_SIZE)
    throw badOption('journalSize', `must be an integer from 0 to ${MAX_JOURNAL_SIZE}, got ${capacity}`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0 || maxBytes > MAX_JOURNAL_BYTES)
    throw badOption('journalBytes', `must be an integer from 0 to ${MAX_JOURNAL_BYTES}, got ${maxBytes}`);
}

/** The journal's ring: one column per field, one slot per kept request (numbers in typed arrays). */
interface Ring {
  seqs: Float64Array;
  times: Float64Array;
  durations: Float64Array;
  statuses: Int16Array;
  methods: string[];
  /** The path as sent and the raw query, apart. */
  paths: string[];
  queries: string[];
  headers: ApiRequest['headers'][];
  /**
   * The body as text, a column of its own rather than a field of `extras`: a create's entry then holds no object made
   * for it, only the body's string, and that is the string of the last body when the same is sent again.
   */
  bodies: (string | undefined)[];
  extras: (Extra | undefined)[];
  /** What the layers matched: the operation, and the path in canonical spelling (no allocation per request). */
  operations: (string | undefined)[];
  canonicals: (string | undefined)[];
  /** Each entry's bytes, as counted against the budget. */
  costs: Float64Array;
}

function createRing(capacity: number): Ring {
  return {
    seqs: new Float64Array(capacity),
    times: new Float64Array(capacity),
    durations: new Float64Array(capacity),
    statuses: new Int16Array(capacity),
    methods: new Array(capacity),
    paths: new Array(capacity),
    queries: new Array(capacity),
    headers: new Array(capacity),
    bodies: new Array(capacity),
    extras: new Array(capacity),
    operations: new Array(capacity),
    canonicals: new Array(capacity),
    costs: new Float64Array(capacity),
  };
}

/** The kept entries that `filter` asks for, oldest first, from `count` slots starting at `first`. */
function listEntries(
  ring: Ring,
  first: number,
  count: number,
  filter: JournalFilter,
  keys: readonly string[],
): JournalEntry[] {
  const method = filter.method?.toUpperCase();
  const { since = 0, limit = Number.POSITIVE_INFINITY } = filter;
  const wanted = filter.path === undefined ? undefined : canonicalPath(filter.path);
  const capacity = ring.seqs.length;
  const entries: JournalEntry[] = [];
  // Only the entries asked for are built (redacting is what costs): a page of a full journal stays quick.
  for (let i = 0; i < count && entries.length < limit; i++) {
    const slot = (first + i) % capacity;
    if (ring.seqs[slot]! <= since || (method !== undefined && ring.methods[slot] !== method)) continue;
    if (wanted !== undefined && !matchesTemplate(wanted, pathAt(ring, slot))) continue;
    entries.push(entryAt(ring, slot, keys));
  }
  return entries;
}

/** A kept request's path in canonical spelling, as the filter reads it. */
function pathAt(ring: Ring, slot: number): string {
  return ring.canonicals[slot] ?? canonicalPath(ring.paths[slot]!);
}

/** The entry in `slot` as a reader gets it: built and redacted now, never before (recording stays cheap). */
function entryAt(ring: Ring, slot: number, keys: readonly string[]): JournalEntry {
  const extra = ring.extras[slot];
  const path = ring.paths[slot]!;
  const query = ring.queries[slot]!;
  const kept = ring.bodies[slot];
  const body = kept === undefined ? undefined : bodyAsRead(kept, extra?.bodyRedacted === true, keys);
  const status = ring.statuses[slot]!;
  return {
    seq: ring.seqs[slot]!,
    at: new Date(ring.times[slot]!).toISOString(),
    method: ring.methods[slot]!,
    path: redactText(path, keys),
    ...(ring.operations[slot] === undefined ? {} : { operationId: ring.operations[slot] }),
    query: redactQuery(query, keys),
    headers: redactHeaders(ring.headers[slot]!, keys),
    ...(body === undefined ? {} : { body: body.text }),
    ...(extra?.bodyTruncated || body?.cut ? { bodyTruncated: true } : {}),
    status: status === -1 ? null : status,
    ...(extra?.fault === undefined ? {} : { fault: extra.fault }),
    durationMs: ring.durations[slot]!,
    applied: { ...extra?.applied },
    ...(extra?.abandoned ? { abandoned: true as const } : {}),
  };
}

/** A kept body as read: redacted, and cut to the limit if redaction made it longer. */
function bodyAsRead(kept: string, redacted: boolean, keys: readonly string[]): { text: string; cut: boolean } {
  const text = redacted ? kept : redactText(kept, keys);
  return text.length <= JOURNAL_BODY_LIMIT
    ? { text, cut: false }
    : { text: text.slice(0, JOURNAL_BODY_LIMIT), cut: true };
}

/** An entry's rarer parts, or undefined when it has none (the writer adds a cut body's flags). */
function extraOf(request: ApiRequest, fault: Fault | undefined, applied: Applied): Extra | undefined {
  let extra: Extra | undefined;
  if (request.bodyTooLarge) extra = { bodyTruncated: true };
  if (fault !== undefined) (extra ??= {}).fault = fault;
  if (request.abandoned) (extra ??= {}).abandoned = true;
  if (anyApplied(applied)) (extra ??= {}).applied = applied;
  return extra;
}

/**
 * A copy of `text` that does not hold on to a longer string: a slice of a 1 MB body is, in V8, a view
 * that keeps the whole megabyte alive. A JSON round trip makes a new flat string, lone surrogates included.
 */
function copyOf(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** A headers object's fields in its own order, names and values apart, and their characters (for the byte budget). */
interface Fields {
  names: string[];
  values: ApiRequest['headers'][string][];
  length: number;
}

function fieldsOf(headers: ApiRequest['headers']): Fields {
  const fields: Fields = { names: [], values: [], length: 0 };
  for (const name in headers) {
    const value = headers[name];
    fields.names.push(name);
    fields.values.push(value);
    fields.length +=
      name.length + (typeof value === 'string' ? value.length : Array.isArray(value) ? value.join().length : 0);
  }
  return fields;
}

/**
 * Whether a request's headers are `fields`, the same names with the same values in the same order (a repeated
 * header's array compared by reference: two requests' arrays are never the same). Each value is read where the
 * walk over the object finds it, not looked up by name in another object.
 */
function sameFields(headers: ApiRequest['headers'], fields: Fields): boolean {
  const { names, values } = fields;
  let i = 0;
  for (const name in headers) {
    if (i === names.length || name !== names[i] || headers[name] !== values[i]) return false;
    i++;
  }
  return i === names.length;
}

/** Replaces every key in `text` with {@link REDACTED}, in every form the one redaction knows (guard/redact.ts). */
function redactText(text: string, keys: readonly string[]): string {
  return redactKeys(text, keys);
}

/** The headers to keep: Authorization always redacted, and every key redacted wherever it appears. */
function redactHeaders(
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
function redactQuery(query: string, keys: readonly string[]): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  // The raw query first: decoding turns a key's `+` into a space, which the decoded pass would no longer match.
  for (const [rawName, rawValue] of new URLSearchParams(redactText(query, keys))) {
    const name = redactText(rawName, keys);
    const value = redactText(rawValue, keys);
    const had = out.get(name);
    out.set(name, had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]);
  }
  return Object.fromEntries(out);
}

/** Something else that watches every API answer as sent (coverage, the Pact recorder). */
type Observer = (context: RequestContext, response: ApiResponse) => void;

/**
 * Records every API request and its answer (a fault included) in `journal`, and shows the answer to `observe`:
 * one step for everything that watches the answers. Keys are redacted when the journal is read.
 */
export function journalLayer(journal: Journal, observe?: Observer): Layer {
  // Taken once: the journal has getters (`size`), which make it a dictionary to V8, where a method looked up on every
  // request costs a hash probe. `write` does not read `this`.
  const write = journal.write;
  const record = (context: RequestContext, time: number, started: number, response: ApiResponse): ApiResponse => {
    const fault = response.fault;
    write(
      time,
      context.request,
      context.path,
      context.query,
      context.operation?.operationId,
      // Kept only when spelt otherwise than the path sent (`/v1/%70ets`): pathAt makes the rest again when read.
      context.route?.path === context.path ? undefined : context.route?.path,
      fault === undefined || fault === 'truncated' ? response.status : null,
      fault,
      Math.round((clock.now() - started) * 10) / 10,
      context.applied,
    );
    observe?.(context, response);
    return response;
  };
  return (context, next) => {
    if (!context.api) return next(context);
    const started = clock.now();
    // The wall clock from the same reading: one clock read fewer per request (timeOrigin is when the clock started).
    const time = timeOrigin + started;
    const answer = next(context);
    // A closure only when the answer waits: made for every request, it would be one more allocation each.
    return answer instanceof Promise
      ? answer.then((response) => record(context, time, started, response))
      : record(context, time, started, answer);
  };
}

const lenient = new TextDecoder('utf-8');
// Looked up once: in Node, the global `performance` is a getter, and reading it costs on every request.
const clock = globalThis.performance;
// Fixed for the life of the page or process (High Resolution Time): read once, not per request (in Node each read of
// it is a checked getter).
const timeOrigin = clock.timeOrigin;
const EMPTY: ApiRequest['headers'] = Object.freeze({});
/** How many sets of request headers the journal keeps at hand to reuse: a read's, a create's, and two more. */
const RECENT_HEADERS = 4;
