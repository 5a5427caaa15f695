/**
 * The listing, the call clients make most, answered at the least cost: a
 * query's checks are made once per distinct query text (they depend on
 * nothing else), and the answer's body is kept encoded as UTF-8 for as long as
 * the store's listing text is the same text. Nothing here can be stale: the
 * store is asked for its listing on every request, and the bytes are reused
 * only when its text equals the one they were made from.
 */
import { isResponse, type ListingParams, listQuery } from './operations.ts';
import { parseQuery } from './query.ts';
import type { ApiResponse } from './responses.ts';
import type { PetStore } from './store.ts';

/** Distinct query texts remembered; beyond that the memory starts again. */
const MAX_QUERIES = 256;
/** Longer query texts are checked every time, not remembered: what is kept stays small. */
const MAX_QUERY_LENGTH = 128;
const JSON_TYPE = 'application/json';

interface Remembered extends ListingParams {
  /** The listing text the bytes were made from, and the bytes. */
  json?: string;
  bytes?: Uint8Array;
}

/** Answers `GET /pets` with this raw query (without `?`) from `store`. */
export type ListingResponder = (query: string) => ApiResponse;

/** A listing responder for one store. */
export function listingResponder(store: PetStore): ListingResponder {
  const known = new Map<string, Remembered>();
  const encoder = new TextEncoder();
  return (query) => {
    let entry = known.get(query);
    if (entry === undefined) {
      const params = listQuery(parseQuery(query));
      // A refusal is made again each time: a bad query is rare, and its answer is never shared.
      if (isResponse(params)) return params;
      entry = { limit: params.limit, status: params.status };
      if (query.length <= MAX_QUERY_LENGTH) {
        if (known.size >= MAX_QUERIES) known.clear();
        known.set(query, entry);
      }
    }
    const json = store.listJson(entry.limit, entry.status);
    // The same string while the store is unchanged (one pointer comparison); a new one after any write.
    if (entry.json !== json) {
      entry.bytes = encoder.encode(json);
      entry.json = json;
    }
    return { status: 200, headers: { 'content-type': JSON_TYPE }, body: json, bytes: entry.bytes! };
  };
}
