/**
 * The JSON reporter: the whole report, coverage table included.
 */
import type { Report } from '../types.ts';

/** Renders the report as indented JSON. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
