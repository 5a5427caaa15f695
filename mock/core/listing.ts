/**
 * The listing, the call clients make most, answered at the least cost: a
 * query's checks are made once per distinct query text (they depend on
 * nothing else), and the answer's body is the store's Listing, kept
 * encoded as UTF-8 by the store while it stays true. Nothing here can be
 * stale: the store is asked for its listing on every request.
 */
import { queryMemo } from './memo.ts';
import { isResponse, type ListingParams, listQuery, storeFailure } from './operations.ts';
import { parseQuery } from './query.ts';
import type { ApiResponse } from './responses.ts';
import type { Later, Listing, PetStore } from './store.ts';

const JSON_TYPE = 'application/json';

/** Answers `GET /pets` with this raw query (without `?`) from `store`. */
type ListPets = (query: string) => Later<ApiResponse>;

const listed = (listing: Listing): ApiResponse => ({
  status: 200,
  headers: { 'content-type': JSON_TYPE },
  body: listing.json,
  bytes: listing.bytes,
});

/** `GET /pets` on one store. */
export function listPetsOf(store: PetStore): ListPets {
  const known = queryMemo<ListingParams>();
  const failed = (error: unknown) => storeFailure(error, store.where);
  return (query) => {
    let entry = known.get(query);
    if (entry === undefined) {
      const params = listQuery(parseQuery(query));
      // A refusal is made again each time: a bad query is rare, and its answer is never shared.
      if (isResponse(params)) return params;
      entry = known.keep(query, { limit: params.limit, status: params.status });
    }
    // Called on the store, never taken from it: a store given as `sharedStore` may be a class that reads `this`.
    const found = store.listing(entry.limit, entry.status);
    return found instanceof Promise ? found.then(listed, failed) : listed(found);
  };
}
