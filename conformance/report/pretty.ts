/**
 * The human reporter: one line per case; for a failure, the checks that failed,
 * each request as a curl command, its status and a body excerpt; then the
 * coverage table and the closing `N passed, N failed, N skipped` line.
 */
import { styleText } from 'node:util';
import type { CaseResult, Outcome, Report } from '../types.ts';
import { coverageLines, exchangeLines, failedCheckLines, footerLines, summaryLine } from './format.ts';

/** Options of {@link renderPretty}. */
export interface PrettyOptions {
  /** Use ANSI colour (see {@link shouldColor}). */
  color?: boolean;
}

type Style = Parameters<typeof styleText>[0];

const LABELS: Record<Outcome, { text: string; style: Style }> = {
  passed: { text: 'PASS', style: 'green' },
  failed: { text: 'FAIL', style: 'red' },
  warned: { text: 'WARN', style: 'yellow' },
  skipped: { text: 'SKIP', style: 'gray' },
};

/**
 * Colour when `FORCE_COLOR` asks for it (any value but `0` or `false`: it wins, as in Node itself), never when
 * it is `0`/`false` or `NO_COLOR` is set to a non-empty value (no-color.org), else only on a TTY.
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

function caseLines(r: CaseResult, paint: (s: Style, t: string) => string): string[] {
  const label = LABELS[r.outcome];
  const level = r.level === 'advice' ? ' (advice)' : '';
  const head = `${paint(label.style, label.text)} ${r.id}${level}  ${paint('dim', r.title)}`;
  if (r.outcome === 'passed') return [head];
  if (r.outcome === 'skipped') return [`${head}  ${paint('dim', `— ${r.reason ?? ''}`)}`];
  const detail = [`section: ${r.section}`, ...failedCheckLines(r)];
  for (const ex of r.exchanges) detail.push(...exchangeLines(ex).map((l, i) => (i === 0 ? `$ ${l}` : `  ${l}`)));
  return [head, ...detail.map((l) => `       ${l}`)];
}

/** Renders the report as text (ends with the summary line and a newline). */
export function renderPretty(report: Report, options: PrettyOptions = {}): string {
  // The caller decides about colour (shouldColor); styleText must not second-guess it against process.stdout.
  const paint = (style: Style, text: string): string =>
    options.color ? styleText(style, text, { validateStream: false }) : text;
  const lines = [
    paint(
      'bold',
      `Petstore conformance: ${report.baseUrl} (run ${report.runId}, seed ${report.seed}${report.options.strict ? ', strict' : ''}${report.options.readOnly ? ', read-only' : ''})`,
    ),
    ...(report.proxy ? [`Through the proxy ${report.proxy.url} (from ${report.proxy.source})`] : []),
    '',
    ...report.cases.flatMap((r) => caseLines(r, paint)),
    '',
    paint('bold', 'Coverage (operation, documented status, cases that exercised it)'),
    ...coverageLines(report).map((l) => `  ${l}`),
    '',
    ...footerLines(report),
    `Took ${report.durationMs} ms`,
    paint(report.summary.failed > 0 ? 'red' : 'green', summaryLine(report)),
  ];
  return `${lines.join('\n')}\n`;
}
