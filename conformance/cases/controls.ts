/**
 * The control requests of the cases that judge a refusal or a variation: the same request with a valid value
 * must first get its 2xx, or the case is not applicable (a server that refuses every listing also "refuses" an
 * invalid limit; a server without authentication also "accepts" `bearer`).
 */
import { listPetsLimit, petStatuses } from '../../spec/index.ts';
import type { CaseContext } from '../types.ts';

/** A valid listing gets 200 (the shared listing: no request of its own). */
export function listingControl(ctx: CaseContext): Promise<boolean> {
  return ctx.control(
    { method: 'GET', path: `/pets?limit=${listPetsLimit().maximum}` },
    [200],
    'a valid listing must get 200 before the answer to an invalid one can mean anything',
  );
}

/** A listing filtered by a documented status gets 200. */
export function statusControl(ctx: CaseContext): Promise<boolean> {
  return ctx.control(
    { method: 'GET', path: `/pets?status=${petStatuses()[0]}&limit=${listPetsLimit().maximum}` },
    [200],
    'a valid status must get 200 before the answer to an unknown one can mean anything',
  );
}

/** A valid create gets its 2xx (the run's shared create). */
export function createControl(ctx: CaseContext): Promise<boolean> {
  return ctx.control(
    { creation: 'available' },
    [200, 201],
    'a valid body must be accepted before the refusal of an invalid one can mean anything',
  );
}

/** An existing animal is fetched with 200. */
export async function fetchControl(ctx: CaseContext): Promise<boolean> {
  const id = await ctx.knownPetId();
  if (id === undefined) {
    ctx.notApplicable(
      'not applicable: no animal is known to exist (the shared create failed, or the list was empty), so there is no valid fetch to compare with',
    );
    return false;
  }
  return ctx.control(
    { method: 'GET', path: `/pets/${id}` },
    [200],
    'an existing animal must be fetched with 200 before a 404 or 400 for another id can mean anything',
  );
}
