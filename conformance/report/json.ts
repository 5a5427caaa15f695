/**
 * The JSON reporter: the whole report, status table included; the run's
 * exchange log, when kept, is the har reporter's.
 */
import type { Report } from '../types.ts';

/** Renders the report as indented JSON. */
export function renderJson(report: Report): string {
  const { exchangeLog: _log, ...rest } = report;
  return `${JSON.stringify(rest, null, 2)}\n`;
}
