/** The exit code a report means, for every command that ends with one: run, judge's sibling merge. */
import type { Report } from '../types.ts';

/**
 * 0 every required case passed; 1 a case failed (outside the baseline, when one was given); 2 the run could not
 * test all it was asked to and nothing failed, or it ended early. `line` says why for 2.
 */
export function exitOf(report: Report): { code: 0 | 1 | 2; line?: string } {
  if (report.ended) return { code: 2, line: report.ended.reason };
  if (report.ok) return { code: 0 };
  const unexpected = report.baseline ? report.baseline.unexpected.length : report.summary.failed;
  // Nothing failed, but not all of it could be judged: "could not test all of it", never the server's failure.
  if (unexpected === 0 && report.incomplete) return { code: 2, line: report.incomplete };
  return { code: 1 };
}
