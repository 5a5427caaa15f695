/**
 * The run's exchange log (`exchangeLog`): every exchange on the wire, retried
 * ones included, in the order started, for the har reporter. The client tells
 * the journal of each (`onExchange`). Bounded, since the server chooses the
 * bodies: past `maxEntries` exchanges are counted, not kept, and past
 * `maxBodyBytes` of bodies an exchange is kept without them.
 */
import type { CaseResult, Exchange, ExchangeLog, LoggedExchange } from '../types.ts';

/** How much the log keeps: exchanges, and bytes of bodies (sent and received). */
export interface LogBounds {
  maxEntries: number;
  maxBodyBytes: number;
}

/** The log's default bounds: far above a default run (about eighty exchanges) and a `--generate 200` one. */
export const LOG_BOUNDS: LogBounds = { maxEntries: 20_000, maxBodyBytes: 64 * 1024 * 1024 };

/** Records exchanges as the client reports them, and gives the log. */
export interface Journal {
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

/** Makes an empty journal with the given bounds. */
export function createJournal(bounds: LogBounds = LOG_BOUNDS): Journal {
  const entries: Entry[] = [];
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
      entries.push({ ex, startedAt, retried, keepBodies });
    },
    log(results) {
      const cases = new Map<Exchange, string[]>();
      for (const r of results) for (const ex of r.exchanges) cases.set(ex, [...(cases.get(ex) ?? []), r.id]);
      const exchanges = entries
        .toSorted((a, b) => a.startedAt - b.startedAt)
        .map(
          ({ ex, startedAt, retried, keepBodies }): LoggedExchange => ({
            ...(keepBodies ? ex : withoutBodies(ex)),
            startedAt: new Date(startedAt).toISOString(),
            ...(cases.has(ex) ? { cases: cases.get(ex)! } : {}),
            ...(retried ? { retried: true as const } : {}),
            ...(keepBodies ? {} : { bodiesOmitted: true as const }),
          }),
        );
      return { exchanges, omitted, ...bounds };
    },
  };
}
