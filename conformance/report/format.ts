/**
 * Text pieces every reporter shares: a request as a curl command, body
 * excerpts, failed-check lines, the status table and the summary lines.
 */
import { ansiCQuote, hasRawBytes } from '../client/bytes.ts';
import { formatDuration } from '../client/duration.ts';
import { labelValue } from '../judge/consequences.ts';
import type { CaseResult, Exchange, ExchangeRequest, Report, StatusTableRow } from '../types.ts';
import { excerpt } from '../words.ts';

/** Quotes a string for a POSIX shell. */
function shellQuote(text: string): string {
  // Plain single quotes keep every byte but control characters, which a report shows escaped: those go in bash's
  // $'…', whose \xHH escapes send the byte itself, so the line sends what the suite sent, byte for byte.
  if (!/[\x00-\x1f\x7f\ud800-\udfff]/.test(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  let quoted = "$'";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') quoted += '\\\\';
    else if (ch === "'") quoted += "\\'";
    else if (code < 0x20 || code === 0x7f) quoted += `\\x${code.toString(16).padStart(2, '0')}`;
    // A lone surrogate goes out as UTF-8's replacement character, as the suite's encoder sent it.
    else if (code >= 0xd800 && code <= 0xdfff) quoted += '\\xef\\xbf\\xbd';
    else quoted += ch;
  }
  return `${quoted}'`;
}

/** The request as a curl command; the captured headers already hide the credentials. */
export function renderCurl(request: ExchangeRequest): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET' || request.body !== undefined) parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  // curl sends origin form unless told: the same target the suite sent.
  if (request.absoluteForm) parts.push('--request-target', shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers))
    parts.push('-H', shellQuote(`${displayName(name)}: ${value}`));
  if (request.body !== undefined)
    parts.push(
      ...(hasRawBytes(request.body)
        ? ['--data-binary', ansiCQuote(request.body)]
        : ['--data-raw', shellQuote(request.body)]),
    );
  return parts.join(' ');
}

function displayName(header: string): string {
  return header.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * A case's exchanges with those its failed checks are about first (the answer with the status a check got, or the
 * request carrying a labelled check's value, `limit=-1: status`), then the rest in the order sent: a warning's
 * evidence leads, before the requests that passed.
 */
export function exchangesInOrder(r: CaseResult): Exchange[] {
  const failed = r.checks.filter((c) => !c.ok && !c.info);
  const about = (ex: Exchange): boolean =>
    failed.some((c) => {
      // A labelled check is about the request carrying its value; an unlabelled one about the answer it names.
      const value = labelValue(c.name);
      if (value !== undefined) return ex.request.url.includes(value) || (ex.request.body ?? '').includes(value);
      const got = /got (\d{3})\b/.exec(c.message)?.[1];
      return got !== undefined && String(ex.response?.status) === got;
    });
  const first = r.exchanges.filter(about);
  return first.length === 0 ? r.exchanges : [...first, ...r.exchanges.filter((ex) => !first.includes(ex))];
}

/** The lines describing one exchange of a failed case. */
export function exchangeLines(ex: Exchange): string[] {
  const lines = [renderCurl(ex.request)];
  if (ex.response) {
    lines.push(
      `status: ${ex.response.status}, content-type: ${ex.response.headers['content-type'] ?? '(none)'}, ${ex.response.bytes} bytes`,
    );
    lines.push(`body: ${ex.response.body === '' ? '(empty)' : excerpt(ex.response.body)}`);
  }
  if (ex.retries)
    lines.push(`retried ${ex.retries.count} time(s) after being asked to wait ${formatDuration(ex.retries.waitedMs)}`);
  if (ex.error) lines.push(`error: ${ex.error.code}: ${ex.error.message}`);
  return lines;
}

/** The failed checks of a case, each with its detail lines (ajv errors with instance paths) indented; then what is information (`i`). */
export function failedCheckLines(result: CaseResult): string[] {
  return [
    ...(result.consequence ? [result.consequence] : []),
    ...result.checks
      .filter((c) => !c.ok)
      .flatMap((c) => [
        `✗ ${c.name}: ${c.variation ? `${c.variation}: ` : ''}${c.message}`,
        ...(c.details ?? []).map((d) => `    ${d}`),
      ]),
    ...result.checks.filter((c) => c.info).map((c) => `i ${c.name}: ${c.message}`),
  ];
}

function statusCell(e: StatusTableRow): string {
  if (e.recorded !== undefined)
    return e.recorded === 0 ? 'NOT COVERED' : `${e.recorded} recorded entr${e.recorded === 1 ? 'y' : 'ies'}`;
  const parts = e.generated ? [...e.caseIds, `${e.generated} generated`] : e.caseIds;
  const seen = parts.length === 0 ? 'NOT COVERED' : parts.join(', ');
  const notes = [
    ...(e.answeredOtherwise.length === 0 ? [] : [`answered otherwise, as allowed: ${e.answeredOtherwise.join(', ')}`]),
    ...(e.declaredOnly.length === 0 ? [] : [`expected but not answered: ${e.declaredOnly.join(', ')}`]),
    ...(e.notApplicable.length === 0 ? [] : [`not applicable: ${e.notApplicable.join(', ')}`]),
  ];
  return notes.length === 0 ? seen : `${seen} (${notes.join('; ')})`;
}

/** The status table as aligned text rows (cases that got the status; then those that expected it and did not). */
export function statusTableLines(report: Report): string[] {
  const rows = report.statusTable.map((e) => [e.operationId, `${e.method} ${e.path}`, String(e.status), statusCell(e)]);
  const header = ['operation', 'request', 'status', 'cases'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [fmt(header), ...rows.map(fmt)];
}

/** Lines about what the run created and the baseline. */
export function footerLines(report: Report): string[] {
  const lines = [
    ...(report.ended ? [endedLine(report.ended)] : []),
    ...(report.incomplete && !report.ended ? [`Not all of it could be tested: ${report.incomplete}`] : []),
    ...(report.notChecked ? [`Not checked: ${report.notChecked}`] : []),
    ...(report.traffic ? trafficLines(report.traffic) : [createdLine(report.created)]),
  ];
  if (report.summary.warned > 0)
    lines.push(
      `${report.summary.warned} advice case${report.summary.warned === 1 ? '' : 's'} not followed (warnings; --strict makes them failures)`,
    );
  if (report.summary.info > 0)
    lines.push(
      `${report.summary.info} information case${report.summary.info === 1 ? '' : 's'} noted: a choice the interface leaves open, never a failure (--strict included)`,
    );
  lines.push(...generationLines(report));
  if (report.deselected > 0) lines.push(`${report.deselected} cases not selected (--only/--skip)`);
  const throttled = throttlingLine(report);
  if (throttled) lines.push(throttled);
  const b = report.baseline;
  if (b) {
    lines.push(`Baseline: ${b.known.length} known failure(s), ${b.unexpected.length} new failure(s)`);
    if (b.fixed.length > 0) lines.push(`Fixed since the baseline: ${b.fixed.join(', ')}`);
  }
  return lines;
}

function counted(record: Record<string, number>): string {
  return Object.entries(record)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

function total(record: Record<string, number>): number {
  return Object.values(record).reduce((a, b) => a + b, 0);
}

/** What a judgement of recorded traffic read and left aside, and its coverage line. */
function trafficLines(t: NonNullable<Report['traffic']>): string[] {
  const lines = [
    `Read ${t.entries} entr${t.entries === 1 ? 'y' : 'ies'} from ${t.files.length} file${t.files.length === 1 ? '' : 's'}; judged ${t.judged}${t.side === 'both' ? '' : ` (only the ${t.side}'s findings fail: --side ${t.side})`}`,
  ];
  if (total(t.outside) > 0)
    lines.push(`Outside the base URL, not judged: ${total(t.outside)} (by host: ${counted(t.outside)})`);
  if (total(t.unanswered) > 0)
    lines.push(`Never answered, not judged: ${total(t.unanswered)} (${counted(t.unanswered)})`);
  if (total(t.notOperations) > 0)
    lines.push(`Not an operation of the contract, not judged: ${total(t.notOperations)} (${counted(t.notOperations)})`);
  if (t.bodiesNotRecorded > 0)
    lines.push(
      `${t.bodiesNotRecorded} judged entr${t.bodiesNotRecorded === 1 ? 'y' : 'ies'} without a recorded body: body checks not judged`,
    );
  if (t.resultsOmitted > 0)
    lines.push(`${t.resultsOmitted} results counted but not listed (the report lists a bounded number)`);
  if (t.asOf) lines.push(`getPet judged as of ${t.asOf.slice(0, 10)} (--as-of)`);
  const c = t.coverage;
  lines.push(
    `Coverage: exercised ${c.exercised.join(', ') || 'nothing'}; never exercised ${c.never.join(', ') || 'nothing'}${c.undocumented.length > 0 ? `; undocumented statuses seen ${c.undocumented.join(', ')}` : ''}`,
  );
  return lines;
}

/** Ids listed on the line; the JSON report holds them all. */
const SHOWN_IDS = 10;

/**
 * `Created 25 animals named P* (ids 1, 2, …, 10 and 14 more; 1 answered without a numeric id)`: the count and the
 * list agree; past ten ids the rest are counted, not listed.
 */
function createdLine(created: Report['created']): string {
  const { count, ids, namePrefix } = created;
  const unanswered = created.unanswered ?? [];
  const without = count - ids.length;
  const more = ids.length - SHOWN_IDS;
  const parts = [
    ...(ids.length > 0 ? [`ids ${ids.slice(0, SHOWN_IDS).join(', ')}${more > 0 ? ` and ${more} more` : ''}`] : []),
    ...(without > 0 ? [`${without} answered without a numeric id`] : []),
    // Stored by a create that never said so: the run's all the same, named with the request that made it.
    ...unanswered
      .slice(0, 3)
      .map((u) => `id ${u.id} stored by a create that answered ${u.answered}, no 201: ${excerpt(u.request, 160)}`),
    ...(unanswered.length > 3 ? [`${unanswered.length - 3} more stored without a 201`] : []),
  ];
  return `Created ${count} animal${count === 1 ? '' : 's'} named ${namePrefix}*${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
}

/**
 * The causes, most important first: `C1 [required] statement` with the cases it explains, the contract section and
 * one curl line to see it. Empty when nothing failed.
 */
export function causeLines(report: Report): string[] {
  const causes = report.causes ?? [];
  if (causes.length === 0) return [];
  const failed = report.cases.filter((c) => c.outcome === 'failed').length;
  const lines = [
    `${causes.length} ${causes.length === 1 ? 'cause explains' : 'causes explain'} the ${failed} failed case${failed === 1 ? '' : 's'}, most important first:`,
  ];
  for (const cause of causes) {
    const n = cause.cases.length;
    const later = cause.consequences ?? [];
    lines.push(
      `${cause.id} [${cause.level}] ${cause.statement}`,
      `   ${n === 1 ? 'case' : `${n} cases`}: ${cause.cases.join(', ')}; contract: ${cause.section}`,
      ...(later.length > 0
        ? [
            `   and ${later.length === 1 ? 'a case that fails' : `${later.length} cases that fail`} only because of it: ${later.join(', ')}`,
          ]
        : []),
      ...(cause.evidence ?? []).map(
        (e) => `   entry ${e.entry} at ${e.time}${e.page === undefined ? '' : `, page ${JSON.stringify(e.page)}`}`,
      ),
      ...(cause.needs
        ? [`   needs: ${cause.needs.state}`, ...cause.needs.setup.map((r) => `   $ ${renderCurl(r)}`)]
        : []),
      ...(cause.request ? [`   $ ${renderCurl(cause.request)}`] : []),
    );
  }
  return lines;
}

/** The line that says a run ended early and why; the cases after that point were not run. */
export function endedLine(ended: NonNullable<Report['ended']>): string {
  return `The run ended early (${ended.code}): ${ended.reason}. Only what is listed was judged; the rest was not run`;
}

/** What the server's requests to slow down cost, or undefined when it made none. */
function throttlingLine(report: Report): string | undefined {
  const t = report.throttling;
  const statuses = Object.entries(t.byStatus).map(([status, n]) => `${n} × ${status}`);
  if (statuses.length === 0) return undefined;
  const spent =
    t.exhausted > 0 ? `; ${t.exhausted} came after the wait budget was spent: what they were for was not judged` : '';
  return `The server asked the suite to wait ${statuses.join(', ')} (Retry-After): ${t.retried} retried, ${formatDuration(t.waitedMs)} waited of the ${formatDuration(t.maxWaitMs)} budget${spent}`;
}

/** The closing line, `N passed, N failed, N skipped`, then `, N not applicable` when some were. */
export function summaryLine(report: Report): string {
  const s = report.summary;
  const na = s.notApplicable > 0 ? `, ${s.notApplicable} not applicable` : '';
  return `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${na}`;
}

/** Lines about the generated requests, when there were any: how many, the seed, what was skipped. */
function generationLines(report: Report): string[] {
  const g = report.generation;
  if (!g) return [];
  const sent = Object.entries(g.sent)
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  const lines = [
    `Generated ${g.requestsPerOperation} requests per operation${g.readOnly ? ' (reads only)' : ''} with seed ${g.seed}: sent ${sent} (${g.replayRequests} of them replaying failures, ${g.shrinkRequests} shrinking them; shrinking budget ${g.shrinkBudget.requests} requests and ${g.shrinkBudget.seconds} s per failure); ${g.created} animal${g.created === 1 ? '' : 's'} created by them`,
  ];
  for (const s of g.skipped) lines.push(`Skipped ${s.count} generated value${s.count === 1 ? '' : 's'}: ${s.reason}`);
  return lines;
}
