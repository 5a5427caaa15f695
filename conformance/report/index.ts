/**
 * The reporters by name.
 */
import type { Report } from '../types.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderPretty } from './pretty.ts';

export { coverageLines, renderCurl, summaryLine, throttlingLine } from './format.ts';
export { escapeHtml, renderHtml } from './html.ts';
export { renderJson } from './json.ts';
export { escapeXml, renderJunit } from './junit.ts';
export { type PrettyOptions, renderPretty, shouldColor } from './pretty.ts';

/** The reporters the CLI offers. */
export type ReporterName = 'pretty' | 'json' | 'junit' | 'html';

/** The reporter names, for argument checking. */
export const REPORTERS: readonly ReporterName[] = ['pretty', 'json', 'junit', 'html'];

/** Renders `report` with the named reporter. */
export function render(name: ReporterName, report: Report, options: { color?: boolean } = {}): string {
  if (name === 'json') return renderJson(report);
  if (name === 'junit') return renderJunit(report);
  if (name === 'html') return renderHtml(report);
  return renderPretty(report, options);
}
