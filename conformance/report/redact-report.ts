/**
 * The report as it leaves the library: the one place the key is hidden. The
 * checks have already read every exchange as the server sent it; here what
 * the server sent loses every spelling of the key, text that mixes the
 * suite's words with server values loses it where it stands alone (or
 * anywhere, when it is long), and the suite's own words (ids, titles, check
 * names, the paths it requested, counts) are left as they are.
 */

import { type Redactor, redactDeep } from '../../guard/redact.ts';
import { createRedactor, createTextRedactor } from '../client/redact.ts';
import type { JudgedCase } from '../judge/consequences.ts';
import type { CaseResult, CheckResult, Exchange, ExchangeResponse, Report } from '../types.ts';

/** The two redactors of the output edge. */
interface OutputRedactors {
  /** For what a server sent: every occurrence goes. */
  data: Redactor;
  /** For mixed text: see createTextRedactor. */
  text: Redactor;
}

/** Strings up to this long are remembered by {@link remembered}: field names and values listings repeat, as do check messages. */
const REMEMBERED_LENGTH = 256;
/** At most this many answers are remembered (a long HAR file's unique values would otherwise all be kept). */
const REMEMBERED_COUNT = 50_000;

/**
 * `redact` with its answers for short strings remembered: a report's listings repeat the same field names and
 * values in every animal and every listing, and each would otherwise be searched for every spelling of every secret.
 */
function remembered(redact: Redactor): Redactor {
  const answers = new Map<string, string>();
  return (text) => {
    if (text.length > REMEMBERED_LENGTH) return redact(text);
    let out = answers.get(text);
    if (out === undefined) {
      out = redact(text);
      if (answers.size < REMEMBERED_COUNT) answers.set(text, out);
    }
    return out;
  };
}

/** Both redactors for `secrets`. */
export function outputRedactors(secrets: readonly string[]): OutputRedactors {
  // Check messages repeat too (`expected 200, got 200`, `valid Pet`): a run's thousand have a few dozen texts.
  return { data: remembered(createRedactor(secrets)), text: remembered(createTextRedactor(secrets)) };
}

function redactResponse(res: ExchangeResponse, r: OutputRedactors): ExchangeResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) headers[r.data(name)] = r.data(value);
  return {
    ...res,
    headers,
    body: r.data(res.body),
    ...(res.json === undefined ? {} : { json: redactDeep(res.json, r.data) }),
    ...(res.jsonError === undefined ? {} : { jsonError: r.text(res.jsonError) }),
  };
}

/** The base URL part of `url` goes through the text redactor (the user typed it); the suite's path stays. */
function redactUrl(url: string, baseUrl: string, r: OutputRedactors): string {
  return url.startsWith(baseUrl) ? r.text(baseUrl) + url.slice(baseUrl.length) : r.text(url);
}

function redactExchange(ex: Exchange, baseUrl: string, r: OutputRedactors): Exchange {
  return {
    ...ex,
    request: { ...ex.request, url: redactUrl(ex.request.url, baseUrl, r) },
    ...(ex.response ? { response: redactResponse(ex.response, r) } : {}),
    ...(ex.error ? { error: { code: ex.error.code, message: r.text(ex.error.message) } } : {}),
  };
}

function redactCheck(c: CheckResult, r: OutputRedactors): CheckResult {
  return { ...c, message: r.text(c.message), ...(c.details ? { details: c.details.map(r.text) } : {}) };
}

function redactCase(c: CaseResult, exchange: (ex: Exchange) => Exchange, r: OutputRedactors): CaseResult {
  // letIn is what the server stored, for finding causes only: the report does not carry it.
  const { letIn: _letIn, ...kept } = c as JudgedCase;
  return {
    ...kept,
    ...(c.reason === undefined ? {} : { reason: r.text(c.reason) }),
    ...(c.consequence === undefined ? {} : { consequence: r.text(c.consequence) }),
    checks: c.checks.map((k) => redactCheck(k, r)),
    exchanges: c.exchanges.map(exchange),
  };
}

/** A copy of `report` with the key hidden as described above; `requestBase` is the origin and path every request URL starts with. */
export function redactReport(report: Report, requestBase: string, r: OutputRedactors): Report {
  // An exchange several cases read (a shared control or listing) is redacted once, and its copy shared alike.
  const copies = new WeakMap<Exchange, Exchange>();
  const exchange = (ex: Exchange): Exchange => {
    let copy = copies.get(ex);
    if (copy === undefined) copies.set(ex, (copy = redactExchange(ex, requestBase, r)));
    return copy;
  };
  return {
    ...report,
    baseUrl: r.text(report.baseUrl),
    ...(report.created?.unanswered
      ? {
          created: {
            ...report.created,
            unanswered: report.created.unanswered.map((u) => ({ ...u, request: r.text(u.request) })),
          },
        }
      : {}),
    cases: report.cases.map((c) => redactCase(c, exchange, r)),
    ...(report.causes
      ? {
          causes: report.causes.map((cause) => ({
            ...cause,
            statement: r.text(cause.statement),
            ...(cause.request
              ? { request: { ...cause.request, url: redactUrl(cause.request.url, requestBase, r) } }
              : {}),
            ...(cause.needs
              ? {
                  needs: {
                    state: r.text(cause.needs.state),
                    setup: cause.needs.setup.map((q) => ({ ...q, url: redactUrl(q.url, requestBase, r) })),
                  },
                }
              : {}),
          })),
        }
      : {}),
    ...(report.ended ? { ended: { ...report.ended, reason: r.text(report.ended.reason) } } : {}),
    // It may quote what a proxy answered.
    ...(report.incomplete === undefined ? {} : { incomplete: r.text(report.incomplete) }),
    ...(report.exchangeLog
      ? {
          exchangeLog: {
            ...report.exchangeLog,
            exchanges: report.exchangeLog.exchanges.map((ex) => ({ ...ex, ...redactExchange(ex, requestBase, r) })),
          },
        }
      : {}),
  };
}
