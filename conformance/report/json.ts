/**
 * The JSON reporter: the whole report, status table included; the run's
 * exchange log, when kept, is the har reporter's.
 */
import type { Report } from '../types.ts';

/** Renders the report as indented JSON. */
export function renderJson(report: Report): string {
  const { exchangeLog: _log, ended, ...rest } = report;
  // Why the run ended early is the first thing a reader (or a `jq .ended`) meets.
  return `${JSON.stringify(ended ? { ended, ...rest } : rest, null, 2)}\n`;
}
