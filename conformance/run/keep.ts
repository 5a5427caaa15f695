/**
 * What the run keeps of an exchange once every check that reads it has: a body
 * of at most {@link KEPT_BODY_CHARS} characters, and its parsed JSON only when
 * the body was kept whole. A server controls how much it sends (up to the 1 MiB
 * cap per answer, 350,000 objects once parsed); kept whole, a run's answers
 * held gigabytes and made a JSON report too long for a string. Trimmed in place,
 * so the exchange log and the results still share the same objects.
 */
import type { Exchange } from '../types.ts';

/** Characters of a body kept after judging: what the reports can show. */
export const KEPT_BODY_CHARS = 16 * 1024;

/** Cuts `ex`'s response body to {@link KEPT_BODY_CHARS} and drops its parsed JSON when the body was cut. */
export function keepForReport(ex: Exchange): void {
  const res = ex.response;
  if (!res || res.body.length <= KEPT_BODY_CHARS) return;
  res.body = res.body.slice(0, KEPT_BODY_CHARS);
  res.bodyCut = true;
  delete res.json;
}
