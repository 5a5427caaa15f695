/**
 * The reporters by name.
 */
import type { Report } from '../types.ts';
import { renderHar } from './har.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderPretty } from './pretty.ts';

export { renderCurl } from './format.ts';
export { escapeHtml, renderHtml } from './html.ts';
export { renderJson } from './json.ts';
export { escapeXml, renderJunit } from './junit.ts';
export { renderPretty, shouldColor } from './pretty.ts';

/** One reporter: how it renders a report, and what the CLI says and does for it. */
export interface Reporter {
  /** One line for `--help`. */
  help: string;
  /** The report must carry the run's exchange log (`exchangeLog: true`). */
  needsExchangeLog?: boolean;
  render(report: Report, options: { color?: boolean }): string;
}

/** Every reporter by name: the help text, the `--reporter` check and the leak test all read this table. */
export const REPORTER_TABLE = {
  pretty: { help: 'text for a terminal or a CI log (the default)', render: renderPretty },
  json: { help: 'the whole report as JSON', render: renderJson },
  junit: { help: 'JUnit XML, one testcase per case, for CI test views', render: renderJunit },
  html: { help: 'one self-contained HTML page for QA', render: renderHtml },
  har: {
    help: 'every request and answer, in order: HTTP Archive 1.2',
    needsExchangeLog: true,
    render: renderHar,
  },
} as const satisfies Record<string, Reporter>;

/** The reporters the CLI offers. */
export type ReporterName = keyof typeof REPORTER_TABLE;

/** The reporter names, for argument checking. */
export const REPORTERS = Object.keys(REPORTER_TABLE) as ReporterName[];

/** The reporter named `name`, or undefined when there is none. */
export function reporter(name: string): Reporter | undefined {
  return Object.hasOwn(REPORTER_TABLE, name) ? REPORTER_TABLE[name as ReporterName] : undefined;
}

/** Renders `report` with the named reporter. */
export function render(name: ReporterName, report: Report, options: { color?: boolean } = {}): string {
  return REPORTER_TABLE[name].render(report, options);
}
