/**
 * Prism's `sl-violations` response header: parse it, record it for every
 * response an undici client (npm undici or Node's fetch) receives from a
 * Prism origin, and summarise what was seen.
 */
import diagnosticsChannel from 'node:diagnostics_channel';

/** One violation as Prism reports it in `sl-violations`. */
export interface Violation {
  /** Starts with `request` or `response`, then the place, e.g. `['request', 'query', 'limit']`. */
  location: string[];
  /** Prism's DiagnosticSeverity name: `Error`, `Warning`, `Information` or `Hint`. */
  severity: string;
  code?: string | number;
  message: string;
}

/** One response from the Prism origin and the violations it carried. */
export interface ViolationRecord {
  method: string;
  /** Path and query as sent to Prism. */
  path: string;
  status: number;
  violations: Violation[];
  /** The start of the response body (up to 2 KiB), for reports. */
  body: string;
}

/** Records every response from one origin until stopped. */
export interface ViolationRecorder {
  readonly records: readonly ViolationRecord[];
  /** Unsubscribes; records stay readable. */
  stop(): void;
}

/** Counts and lists of what a set of records carried. */
interface ViolationSummary {
  requests: number;
  /** Response violations of Error severity: a response that breaks the spec. */
  responseErrors: ViolationRecord[];
  /** Distinct response warnings (`METHOD path -> status: message`), with how often each was seen. */
  responseWarnings: Map<string, number>;
  /** Distinct request violations (the traffic was invalid on purpose), with counts. */
  requestViolations: Map<string, number>;
}

const TRUNCATED_PREFIX = 'Too many violations! ';
const BODY_KEEP = 2048;

/** Parses an `sl-violations` header value; a missing header is no violation, and an unreadable one is a single Error. */
export function parseViolations(header: string | string[] | undefined): Violation[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.startsWith(TRUNCATED_PREFIX)) {
    // Prism cuts the header near 8 KiB: the list is lost, so count it as an Error rather than guess.
    return [
      { location: ['response'], severity: 'Error', message: `sl-violations truncated by Prism: ${text.slice(0, 200)}` },
    ];
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed) && parsed.every(isViolation)) return parsed;
  } catch {
    // Fall through to the unreadable case.
  }
  return [
    { location: ['response'], severity: 'Error', message: `unreadable sl-violations header: ${text.slice(0, 200)}` },
  ];
}

function isViolation(value: unknown): value is Violation {
  const v = value as Violation;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.location) &&
    typeof v.severity === 'string' &&
    typeof v.message === 'string'
  );
}

interface UndiciRequest {
  origin?: string | URL;
  method: string;
  path: string;
}

interface HeadersMessage {
  request: UndiciRequest;
  response: { statusCode: number; headers: Buffer[] | string[] };
}

/** Subscribes to undici's diagnostics channels and records each response whose request went to `origin`. */
export function recordViolations(origin: string): ViolationRecorder {
  const want = new URL(origin).origin;
  const records: ViolationRecord[] = [];
  const open = new WeakMap<object, ViolationRecord>();
  const onHeaders = (message: unknown): void => {
    const { request, response } = message as HeadersMessage;
    if (request.origin === undefined || new URL(String(request.origin)).origin !== want) return;
    const record: ViolationRecord = {
      method: request.method,
      path: request.path,
      status: response.statusCode,
      violations: parseViolations(headerValue(response.headers, 'sl-violations')),
      body: '',
    };
    records.push(record);
    open.set(request, record);
  };
  const onChunk = (message: unknown): void => {
    const { request, chunk } = message as { request: object; chunk: Buffer };
    const record = open.get(request);
    if (record && record.body.length < BODY_KEEP)
      record.body += Buffer.from(chunk)
        .toString('utf8')
        .slice(0, BODY_KEEP - record.body.length);
  };
  diagnosticsChannel.subscribe('undici:request:headers', onHeaders);
  diagnosticsChannel.subscribe('undici:request:bodyChunkReceived', onChunk);
  return {
    records,
    stop() {
      diagnosticsChannel.unsubscribe('undici:request:headers', onHeaders);
      diagnosticsChannel.unsubscribe('undici:request:bodyChunkReceived', onChunk);
    },
  };
}

/** Finds a header in undici's flat raw list `[name, value, name, value, ...]`. */
function headerValue(raw: readonly (Buffer | string)[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  }
  return undefined;
}

/** Splits records into response errors, response warnings and request violations. */
export function summarizeViolations(records: readonly ViolationRecord[]): ViolationSummary {
  const summary: ViolationSummary = {
    requests: records.length,
    responseErrors: [],
    responseWarnings: new Map(),
    requestViolations: new Map(),
  };
  for (const record of records) {
    const route = `${record.method} ${record.path.split('?')[0]} -> ${record.status}`;
    for (const v of record.violations) {
      if (v.location[0] === 'request') {
        bump(summary.requestViolations, `${v.severity} ${v.location.join('.')}: ${v.message}`);
      } else if (v.severity === 'Error') {
        if (!summary.responseErrors.includes(record)) summary.responseErrors.push(record);
      } else {
        bump(summary.responseWarnings, `${route}: ${v.message}`);
      }
    }
  }
  return summary;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
