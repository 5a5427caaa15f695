/**
 * The run's exchange log (`exchangeLog`): every exchange on the wire, retried
 * ones included, in the order started, for the har reporter. The client tells
 * the recorder of each (`onExchange`). Bounded, since the server chooses the
 * bodies: past `maxEntries` exchanges are counted, not kept, and past
 * `maxBodyBytes` of bodies an exchange is kept without them. Each is kept as a
 * copy with what a report shows (a body of at most KEPT_BODY_CHARS, no parsed
 * JSON), so the log never holds what the checks have done with.
 */
import type { CaseResult, Exchange, ExchangeLog, LoggedExchange } from '../types.ts';
import { KEPT_BODY_CHARS } from './keep.ts';

/** How much the log keeps: exchanges, and bytes of bodies (sent and received). */
interface LogBounds {
  maxEntries: number;
  maxBodyBytes: number;
}

/** The log's default bounds: far above a default run (about eighty exchanges) and a `--generate 200` one. */
const LOG_BOUNDS: LogBounds = { maxEntries: 20_000, maxBodyBytes: 64 * 1024 * 1024 };

/** Records exchanges as the client reports them, and gives the log. */
interface ExchangeRecorder {
  /** For the client's `onExchange`. */
  record(exchange: Exchange, startedAt: number, retried: boolean): void;
  /** The log, in the order started; each exchange names the cases in `results` that show it. */
  log(results: readonly CaseResult[]): ExchangeLog;
}

interface Entry {
  ex: Exchange;
  startedAt: number;
  retried: boolean;
  keepBodies: boolean;
}

function withoutBodies(ex: Exchange): Exchange {
  const { body: _sent, ...request } = ex.request;
  if (!ex.response) return { ...ex, request };
  const { json: _json, jsonError: _error, ...response } = ex.response;
  return { ...ex, request, response: { ...response, body: '' } };
}

/** The copy of `ex` the log keeps: the body cut as a report shows it, without the parsed JSON. */
function forLog(ex: Exchange): Exchange {
  if (!ex.response) return { ...ex };
  const { json: _json, ...response } = ex.response;
  if (response.body.length <= KEPT_BODY_CHARS) return { ...ex, response };
  return { ...ex, response: { ...response, body: response.body.slice(0, KEPT_BODY_CHARS), bodyCut: true } };
}

/** Makes an empty recorder with the given bounds. */
export function createExchangeRecorder(bounds: LogBounds = LOG_BOUNDS): ExchangeRecorder {
  const entries: Entry[] = [];
  // The exchange the client sent to its entry: results name the originals.
  const entryOf = new WeakMap<Exchange, Entry>();
  let omitted = 0;
  let bodyBytes = 0;
  return {
    record(ex, startedAt, retried) {
      if (entries.length >= bounds.maxEntries) {
        omitted++;
        return;
      }
      const bytes = Buffer.byteLength(ex.request.body ?? '') + (ex.response?.bytes ?? 0);
      const keepBodies = bodyBytes + bytes <= bounds.maxBodyBytes;
      if (keepBodies) bodyBytes += bytes;
      const entry = { ex: forLog(ex), startedAt, retried, keepBodies };
      entries.push(entry);
      entryOf.set(ex, entry);
    },
    log(results) {
      const cases = new Map<Entry, string[]>();
      for (const r of results)
        for (const ex of r.exchanges) {
          const entry = entryOf.get(ex);
          if (entry) cases.set(entry, [...(cases.get(entry) ?? []), r.id]);
        }
      const exchanges = entries
        .toSorted((a, b) => a.startedAt - b.startedAt)
        .map(
          (entry): LoggedExchange => ({
            ...(entry.keepBodies ? entry.ex : withoutBodies(entry.ex)),
            startedAt: new Date(entry.startedAt).toISOString(),
            ...(cases.has(entry) ? { cases: cases.get(entry)! } : {}),
            ...(entry.retried ? { retried: true as const } : {}),
            ...(entry.keepBodies ? {} : { bodiesOmitted: true as const }),
          }),
        );
      return { exchanges, omitted, ...bounds };
    },
  };
}
