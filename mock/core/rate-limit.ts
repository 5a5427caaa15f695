/**
 * `--rate-limit N`: at most N API requests per second per key (per
 * Authorization value), in fixed one-second windows, with the RateLimit
 * headers of the IETF httpapi draft on every API answer.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 */
import { type Answer, headerValue, isShaped, type Layer, thenAnswer } from './layers.ts';
import { type ApiResponse, ErrorCode, errorResponse } from './responses.ts';

/** Options of {@link rateLimitLayer}. */
interface RateLimitOptions {
  /** Requests per second per key. */
  perSecond: number;
  /** The clock, in ms (default Date.now). */
  now?: () => number;
  /**
   * A count kept by a database store for every mock on it: records one request of `bucket` in the one-second
   * `window` and resolves with the requests counted there so far, by every mock. Without it, this mock counts alone.
   */
  counter?: { count(bucket: string, window: number): Promise<number>; failed(error: unknown): ApiResponse };
}

/** Refuses, with a 429 Error and `Retry-After`, the requests of a key beyond its share of the current second. */
export function rateLimitLayer({ perSecond, now = Date.now, counter }: RateLimitOptions): Layer {
  let window = -1;
  // Only this second's keys are held: the map is emptied when the window moves, so it cannot grow without bound.
  const counts = new Map<string, number>();
  const policy = `"default";q=${perSecond};w=1`;
  return (context, next) => {
    if (!isShaped(context)) return next(context);
    const time = now();
    const current = Math.floor(time / 1000);
    if (current !== window) {
      window = current;
      counts.clear();
    }
    const key = bucketOf(headerValue(context.request, 'authorization'));
    if (counter) return counter.count(key, current).then((used) => decide(used, time, current), counter.failed);
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    return decide(used, time, current);

    function decide(used: number, time: number, current: number): Answer {
      const resetSeconds = Math.max(1, Math.ceil(((current + 1) * 1000 - time) / 1000));
      const headers = {
        'ratelimit-policy': policy,
        ratelimit: `"default";r=${Math.max(0, perSecond - used)};t=${resetSeconds}`,
      };
      if (used > perSecond) {
        context.applied.rateLimited = true;
        return errorResponse(
          429,
          ErrorCode.rateLimited,
          `rate limit of ${perSecond} requests per second exceeded; retry after ${resetSeconds} s`,
          { ...headers, 'retry-after': String(resetSeconds) },
        );
      }
      return thenAnswer(next(context), (response) => (Object.assign(response.headers, headers), response));
    }
  };
}

/**
 * The bucket of an `Authorization` value: the scheme in lower case and the credentials without the spaces
 * around them, so `bearer K`, `Bearer  K` and `Bearer K` (one key, as the key check reads them) share one.
 */
function bucketOf(authorization: string | undefined): string {
  if (authorization === undefined) return '';
  const match = /^\s*(\S+)\s+(.*?)\s*$/.exec(authorization);
  return match ? `${match[1]!.toLowerCase()} ${match[2]}` : authorization.trim().toLowerCase();
}
