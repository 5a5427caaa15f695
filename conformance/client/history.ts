/**
 * What the run's own requests did to the server's state, in the order they ended. A create can store an animal
 * and still answer 500; every later answer that holds it, or that breaks because of it, then depends on that one
 * request. The history lets the report count such an animal as the run's, name the request that made it, and
 * trace a failure that started only after it back to it. Bounded: a server chooses how much it answers.
 */
import type { Exchange, ExchangeRequest } from '../types.ts';

/** An animal a listing or a fetch showed, that no 2xx create answered, but whose name a non-2xx create of the run sent. */
export interface StoredUnanswered {
  id: number;
  name: string;
  /** The create that stored it, and what it answered (`500`, or the transport error's code). */
  request: ExchangeRequest;
  answered: string;
  /** Where the create stands in the run's order (see {@link RunHistory.orderOf}). */
  order: number;
}

/** The run's requests in order, and what they stored without saying so. */
export interface RunHistory {
  /** Records an exchange as it ends (the client calls it for each one it returns). */
  note(ex: Exchange): void;
  /** The exchange's place in the run (1 for the first), or undefined when it was not noted. */
  orderOf(ex: Exchange): number | undefined;
  /** The create that made animal `id` (a 2xx with that id, or one stored without a 2xx), or undefined. */
  madeBy(id: number): { request: ExchangeRequest; answered: string } | undefined;
  /** Every animal the run made that the history kept (2xx creates, then those stored without one), with its create. */
  made(): { id: number; request: ExchangeRequest; answered: string }[];
  /** The animals stored without a 2xx, in the order their creates were sent. */
  stored(): readonly StoredUnanswered[];
  /**
   * The stored animal whose create a failure of `ex` started after: the same kind of request answered 2xx earlier
   * in the run, never again once that create was sent, and `ex` came after it. Undefined otherwise.
   */
  startedAfter(ex: Exchange): StoredUnanswered | undefined;
}

/** Bounds: non-2xx creates remembered by name, kinds of request remembered, stored animals kept. */
const MAX_CREATES = 1000;
const MAX_KINDS = 2000;
const MAX_STORED = 100;
/** A create body longer than this is not read for its name. */
const MAX_BODY_CHARS = 16 * 1024;

function is2xx(ex: Exchange): boolean {
  const status = ex.response?.status ?? 0;
  return status >= 200 && status <= 299;
}

/**
 * The kind of a request: its method, path and the names of its query parameters (`GET /v1/pets?limit`), so a
 * listing with another `limit` value is the same kind and a filtered one is not.
 */
export function requestKind(request: ExchangeRequest): string {
  try {
    const url = new URL(request.url);
    const names = [...new Set(url.searchParams.keys())].sort();
    return `${request.method} ${url.pathname}?${names.join('&')}`;
  } catch {
    return `${request.method} ${request.url}`;
  }
}

function sentName(body: string | undefined): string | undefined {
  if (body === undefined || body.length > MAX_BODY_CHARS) return undefined;
  try {
    const value = JSON.parse(body) as { name?: unknown } | null;
    return typeof value?.name === 'string' && value.name !== '' ? value.name : undefined;
  } catch {
    return undefined;
  }
}

/** The items of an answer a Pet may be in: each of an array, or the object itself. */
function items(json: unknown): unknown[] {
  return Array.isArray(json) ? json : json !== null && typeof json === 'object' ? [json] : [];
}

/** Makes an empty history; `runName` is the prefix every name the run sends carries. */
export function createRunHistory(runName: string): RunHistory {
  let count = 0;
  const order = new WeakMap<Exchange, number>();
  // The creates that answered 2xx, by the id they answered.
  const created = new Map<number, ExchangeRequest>();
  const unanswered = new Map<string, { request: ExchangeRequest; answered: string; order: number }>();
  const stored = new Map<number, StoredUnanswered>();
  // For each kind of request, the places of its first and last 2xx answers.
  const ok = new Map<string, { first: number; last: number }>();

  function noteAnimals(ex: Exchange): void {
    for (const item of items(ex.response?.json)) {
      const { id, name } = (item ?? {}) as { id?: unknown; name?: unknown };
      if (!Number.isSafeInteger(id) || typeof name !== 'string' || !name.startsWith(runName)) continue;
      const from = unanswered.get(name);
      if (from === undefined || created.has(id as number) || stored.has(id as number) || stored.size >= MAX_STORED)
        continue;
      stored.set(id as number, { id: id as number, name, ...from });
    }
  }

  return {
    note(ex) {
      const at = ++count;
      order.set(ex, at);
      if (ex.request.method === 'POST') {
        const id = (ex.response?.json as { id?: unknown } | undefined)?.id;
        if (is2xx(ex)) {
          if (Number.isSafeInteger(id) && created.size < MAX_CREATES) created.set(id as number, ex.request);
          return;
        }
        const name = sentName(ex.request.body);
        if (name?.startsWith(runName) && !unanswered.has(name) && unanswered.size < MAX_CREATES)
          unanswered.set(name, {
            request: ex.request,
            answered: ex.response ? String(ex.response.status) : (ex.error?.code ?? 'no answer'),
            order: at,
          });
        return;
      }
      if (!is2xx(ex)) return;
      const kind = requestKind(ex.request);
      const seen = ok.get(kind);
      if (seen) seen.last = at;
      else if (ok.size < MAX_KINDS) ok.set(kind, { first: at, last: at });
      if (ex.request.method === 'GET' && unanswered.size > 0) noteAnimals(ex);
    },
    orderOf: (ex) => order.get(ex),
    made: () => [
      ...[...created].map(([id, request]) => ({ id, request, answered: '2xx' })),
      ...[...stored.values()].map(({ id, request, answered }) => ({ id, request, answered })),
    ],
    madeBy(id) {
      const request = created.get(id);
      if (request) return { request, answered: '2xx' };
      return stored.get(id);
    },
    stored: () => [...stored.values()].sort((a, b) => a.order - b.order),
    startedAfter(ex) {
      const at = order.get(ex);
      const seen = ok.get(requestKind(ex.request));
      if (at === undefined || seen === undefined || is2xx(ex)) return undefined;
      return [...stored.values()].sort((a, b) => a.order - b.order).find((s) => s.order > seen.last && s.order < at);
    },
  };
}
