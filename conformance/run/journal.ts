/**
 * The run's exchange log (`exchangeLog`): every exchange the client makes, in
 * the order sent, with when it was sent, for the har reporter. Bounded, since
 * the server chooses the bodies: past `maxEntries` exchanges are counted, not
 * kept, and past `maxBodyBytes` of bodies an exchange is kept without them.
 */
import type { Client } from '../client/client.ts';
import type { CaseResult, Exchange, ExchangeLog, LoggedExchange } from '../types.ts';

/** The log's default bounds: far above a default run (about a hundred exchanges) and a `--generate 200` one. */
export const LOG_BOUNDS: LogBounds = { maxEntries: 20_000, maxBodyBytes: 64 * 1024 * 1024 };

/** How much the log keeps: exchanges, and bytes of bodies (sent and received). */
export interface LogBounds {
  maxEntries: number;
  maxBodyBytes: number;
}

/** A client that logs, and the log so far. */
export interface Journal {
  client: Client;
  /** The log; each exchange names the cases in `results` that recorded it. */
  log(results: readonly CaseResult[]): ExchangeLog;
}

interface Slot {
  ex: Exchange;
  startedAt: string;
  keepBodies: boolean;
}

function withoutBodies(ex: Exchange): Exchange {
  const { body: _sent, ...request } = ex.request;
  if (!ex.response) return { ...ex, request };
  const { json: _json, jsonError: _error, ...response } = ex.response;
  return { ...ex, request, response: { ...response, body: '' } };
}

/** Wraps `client` so that each exchange it sends is logged in send order. */
export function recordExchanges(client: Client, bounds: LogBounds = LOG_BOUNDS): Journal {
  const slots: (Slot | undefined)[] = [];
  let omitted = 0;
  let bodyBytes = 0;
  async function send(...args: Parameters<Client['send']>): Promise<Exchange> {
    const startedAt = new Date().toISOString();
    const slot = slots.length < bounds.maxEntries ? slots.push(undefined) - 1 : -1;
    if (slot < 0) omitted++;
    const ex = await client.send(...args);
    if (slot >= 0) {
      const bytes = Buffer.byteLength(ex.request.body ?? '') + (ex.response?.bytes ?? 0);
      const keep = bodyBytes + bytes <= bounds.maxBodyBytes;
      if (keep) bodyBytes += bytes;
      slots[slot] = { ex, startedAt, keepBodies: keep };
    }
    return ex;
  }
  return {
    client: {
      send,
      get stats() {
        return client.stats;
      },
      get throttleStats() {
        return client.throttleStats;
      },
      close: () => client.close(),
    },
    log(results) {
      const cases = new Map<Exchange, string[]>();
      for (const r of results) for (const ex of r.exchanges) cases.set(ex, [...(cases.get(ex) ?? []), r.id]);
      const exchanges = slots
        .filter((s): s is Slot => s !== undefined)
        .map(
          ({ ex, startedAt, keepBodies }): LoggedExchange => ({
            ...(keepBodies ? ex : withoutBodies(ex)),
            startedAt,
            ...(cases.has(ex) ? { cases: cases.get(ex)! } : {}),
            ...(keepBodies ? {} : { bodiesOmitted: true as const }),
          }),
        );
      return { exchanges, omitted, ...bounds };
    },
  };
}
