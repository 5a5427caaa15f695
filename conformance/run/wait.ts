/**
 * `waitForMs` (`--wait-for 60s`): before the first request, wait until the
 * target answers anything at all (any status counts as up: a 401, a 404, a
 * 503), polling with a backoff, for at most the time given; a target that
 * never answers ends the run with one line naming what never answered.
 */
import type { Client } from '../client/client.ts';
import { formatDuration } from '../client/duration.ts';
import { ConformanceError } from '../errors.ts';
import { FIRST_REQUEST } from './preflight.ts';

/** The first pause between tries, and the longest. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2000;

/** Options of {@link waitUntilUp}. */
interface WaitOptions {
  client: Client;
  /** The base URL as given (the line names it). */
  baseUrl: string;
  /** How long to wait in all. */
  waitForMs: number;
  /** The run's end: stops the wait at once. */
  signal?: AbortSignal;
  /** The clock (default Date.now), for tests. */
  now?: () => number;
}

/**
 * Resolves once `GET {baseUrl}/pets?limit=1`, sent without credentials (no key on the wire while waiting), gets
 * any answer; throws `PETSTORE_CONFORMANCE_NOT_UP` when none came within `waitForMs`. Returns the tries it took.
 */
export async function waitUntilUp(o: WaitOptions): Promise<number> {
  const now = o.now ?? Date.now;
  const deadline = now() + o.waitForMs;
  const request = { ...FIRST_REQUEST, auth: 'none' as const };
  let pause = FIRST_PAUSE_MS;
  let tries = 0;
  for (;;) {
    tries++;
    const ex = await o.client.probe(request);
    if (ex.response) return tries;
    const left = deadline - now();
    if (left <= 0 || o.signal?.aborted) {
      const last = ex.error ? `${ex.error.code}: ${ex.error.message}` : 'no answer';
      throw new ConformanceError(
        'PETSTORE_CONFORMANCE_NOT_UP',
        `${o.baseUrl} never answered: GET ${ex.request.url} got no answer in ${formatDuration(o.waitForMs)} (--wait-for, waitForMs; ${tries} tries, the last: ${last.split('\n')[0]})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}
