/**
 * The HAR reporter: the run as an HTTP Archive 1.2 (every request and answer
 * in the order sent, from the report's exchange log), for a browser's devtools
 * and HAR viewers, and for a bug report about a server. The key is already
 * hidden in the report; the request's Authorization header shows its scheme
 * and `[REDACTED]`. What HAR cannot tell from the exchange (DNS, connect and
 * send times, the status text) is given as HAR's "unknown" (-1, "").
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import type { Entry, Har, Header, QueryString } from 'har-format';
import { packageVersion } from '../../spec/files.ts';
import type { LoggedExchange, Report } from '../types.ts';

function nameValues(record: Record<string, string>): Header[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function queryString(url: string): QueryString[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** Milliseconds with at most three decimals, as HAR viewers show them. */
function ms(value: number): number {
  return Math.max(0, Math.round(value * 1000) / 1000);
}

function comment(ex: LoggedExchange): string | undefined {
  const parts = [
    ex.cases?.length ? `cases: ${ex.cases.join(', ')}` : undefined,
    ex.retried ? 'the server asked the suite to wait (Retry-After): sent again' : undefined,
    ex.error ? `${ex.response ? 'failed' : 'no response'}: ${ex.error.code}: ${ex.error.message}` : undefined,
    ex.retries
      ? `answered 429/503 ${ex.retries.count} time(s) before, waited ${Math.round(ex.retries.waitedMs)} ms`
      : undefined,
    ex.bodiesOmitted ? 'bodies not kept: the log had reached its byte bound' : undefined,
    ex.response?.bodyCut
      ? `response body cut to its first ${ex.response.body.length} characters of ${ex.response.bytes} bytes`
      : undefined,
  ].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function entry(ex: LoggedExchange): Entry {
  const req = ex.request;
  const res = ex.response;
  const note = comment(ex);
  const time = ms(ex.durationMs);
  return {
    startedDateTime: ex.startedAt,
    time,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(req.headers),
      queryString: queryString(req.url),
      ...(req.body === undefined ? {} : { postData: { mimeType: req.headers['content-type'] ?? '', text: req.body } }),
      headersSize: -1,
      bodySize: req.body === undefined ? 0 : Buffer.byteLength(req.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: res ? nameValues(res.headers) : [],
      content: {
        size: res?.bytes ?? 0,
        mimeType: res?.headers['content-type'] ?? 'x-unknown',
        ...(res && !ex.bodiesOmitted ? { text: res.body } : {}),
      },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      bodySize: res ? res.bytes : -1,
      ...(ex.error && !res ? { _error: `${ex.error.code}: ${ex.error.message}` } : {}),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: time, receive: 0, ssl: -1 },
    ...(note ? { comment: note } : {}),
  };
}

/** Renders the report's exchange log as HAR 1.2 JSON (no entries when the run kept no log). */
export function renderHar(report: Report): string {
  const log = report.exchangeLog;
  const notes = [
    `petstore-conformance run ${report.runId} against ${report.baseUrl}`,
    report.ended ? `the run ended early (${report.ended.code}): ${report.ended.reason}` : undefined,
    log ? undefined : 'the run kept no exchange log (runConformance needs exchangeLog: true)',
    log && log.omitted > 0
      ? `${log.omitted} later exchanges not kept: the log holds at most ${log.maxEntries}`
      : undefined,
  ].filter((n) => n !== undefined);
  const har: Har = {
    log: {
      version: '1.2',
      // The log's comment comes before its entries: why a run ended early is read first.
      comment: notes.join('; '),
      creator: { name: 'petstore-conformance', version: packageVersion() },
      pages: [],
      entries: (log?.exchanges ?? []).map(entry),
    },
  };
  return `${JSON.stringify(har, null, 2)}\n`;
}
