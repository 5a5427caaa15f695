/**
 * The human reporter: one line per case; for a failure, the checks that failed,
 * each request as a curl command, its status and a body excerpt; then the
 * status table and the closing `N passed, N failed, N skipped` line.
 */
import { styleText } from 'node:util';
import type { CaseResult, Outcome, Report } from '../types.ts';
import { escapeControls } from './controls.ts';
import {
  causeLines,
  endedLine,
  exchangeLines,
  exchangesInOrder,
  failedCheckLines,
  footerLines,
  statusTableLines,
  summaryLine,
} from './format.ts';

/** Options of {@link renderPretty}. */
interface PrettyOptions {
  /** Use ANSI colour (see {@link shouldColor}). */
  color?: boolean;
}

type Style = Parameters<typeof styleText>[0];

const LABELS: Record<Outcome, { text: string; style: Style }> = {
  passed: { text: 'PASS', style: 'green' },
  failed: { text: 'FAIL', style: 'red' },
  warned: { text: 'WARN', style: 'yellow' },
  info: { text: 'INFO', style: 'blue' },
  skipped: { text: 'SKIP', style: 'gray' },
  notApplicable: { text: 'N/A ', style: 'cyan' },
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
  const level = r.level === 'required' ? '' : ` (${r.level === 'info' ? 'information' : r.level})`;
  const cause = r.cause ? `  ${paint('dim', `(${r.consequence ? 'because of' : 'cause'} ${r.cause})`)}` : '';
  const head = `${paint(label.style, label.text)} ${r.id}${level}  ${paint('dim', r.title)}${cause}`;
  if (r.outcome === 'passed') return [head];
  if (r.outcome === 'skipped' || r.outcome === 'notApplicable' || r.outcome === 'info')
    return [`${head}  ${paint('dim', `— ${r.reason ?? ''}`)}`];
  const detail = [`section: ${r.section}`, ...failedCheckLines(r)];
  for (const ex of exchangesInOrder(r))
    detail.push(...exchangeLines(ex).map((l, i) => (i === 0 ? `$ ${l}` : `  ${l}`)));
  return [head, ...detail.map((l) => `       ${l}`)];
}

/** Renders the report as text (ends with the summary line and a newline). */
export function renderPretty(report: Report, options: PrettyOptions = {}): string {
  // Colour goes in as marks that carry a per-render nonce; the text, server values included, then has its control
  // bytes escaped; only then do the marks become ANSI escapes, so every escape sequence in the output is ours.
  const nonce = Math.random().toString(36).slice(2, 10);
  const styles: Style[] = [];
  const paint = (style: Style, text: string): string => {
    styles.push(style);
    return `\uE000${nonce}${styles.length - 1}\uE001${text}\uE002${nonce}`;
  };
  const marks = new RegExp(`\uE000${nonce}(\\d+)\uE001([\\s\\S]*?)\uE002${nonce}`, 'g');
  const unmark = (text: string): string =>
    text.replace(marks, (_m, i: string, inner: string) =>
      // The caller decides about colour (shouldColor); styleText must not second-guess it against process.stdout.
      options.color ? styleText(styles[Number(i)]!, inner, { validateStream: false }) : inner,
    );
  const lines = [
    paint(
      'bold',
      report.traffic
        ? `Petstore recorded traffic judged against the contract: ${report.baseUrl} (${report.traffic.files.length} HAR file${report.traffic.files.length === 1 ? '' : 's'}${report.options.strict ? ', strict' : ''})`
        : `Petstore conformance: ${report.baseUrl} (run ${report.runId}, seed ${report.seed}${report.options.strict ? ', strict' : ''}${report.options.readOnly ? ', read-only' : ''})`,
    ),
    ...(report.proxy ? [`Through the proxy ${report.proxy.url} (from ${report.proxy.source})`] : []),
    // Why the run ended early comes before anything judged, so its failures are not read as the server's.
    ...(report.ended ? ['', paint('red', endedLine(report.ended))] : []),
    '',
    ...(report.causes?.length
      ? [...causeLines(report).map((l, i) => (i === 0 ? paint('bold', l) : `  ${l}`)), '']
      : []),
    // A run that ended before any case (the first request showed it cannot test the server) has no table to show.
    ...(report.ended && report.cases.length === 0
      ? []
      : [
          ...report.cases.flatMap((r) => caseLines(r, paint)),
          '',
          paint('bold', 'Coverage (operation, documented status, cases that exercised it)'),
          ...statusTableLines(report).map((l) => `  ${l}`),
          '',
        ]),
    ...footerLines(report),
    `Took ${report.durationMs} ms`,
    paint(report.summary.failed > 0 || report.ended ? 'red' : 'green', summaryLine(report)),
  ];
  return `${unmark(escapeControls(lines.join('\n')))}\n`;
}
