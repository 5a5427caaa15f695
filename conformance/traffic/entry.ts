/**
 * A HAR entry as an Exchange the suite's checks read: headers lower-cased,
 * bodies decoded (base64, or a file beside the HAR for Playwright's
 * `content: attach`), the response parsed as the client parses one. Secrets
 * leave here: the Authorization credentials, cookies, secret-looking query
 * values and the headers the user names are replaced by `[REDACTED]`, and each
 * is collected so the report's redaction hides it wherever else it shows.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { REDACTED } from '../../guard/redact.ts';
import { buildResponse } from '../client/client.ts';
import type { Exchange } from '../types.ts';
import type { HarEntryRead } from './read-har.ts';

/** A recorded exchange, with what the recording did not hold. */
export interface RecordedEntry {
  /** The order judged (time order across files). */
  seq: number;
  file: string;
  index: number;
  startedAt: string;
  /** Milliseconds since the epoch (NaN when the entry has no valid time). */
  time: number;
  page?: string;
  exchange: Exchange;
  /** The request's body: sent and recorded, not sent, or sent but not recorded. */
  requestBody: 'recorded' | 'none' | 'notRecorded';
  /** Whether the response body was recorded (embedded, base64, or in a file beside the HAR). */
  responseBody: boolean;
  /** Why the entry got no answer (status 0, blocked, cancelled), when it did not. */
  unanswered?: string;
  /** The Authorization header as sent: its scheme, and a digest of its credentials (never the credentials). */
  auth?: { scheme: string; digest: string; empty: boolean };
}

/** Bytes of a body read (from the HAR or a file beside it), as the client's cap. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Query parameters whose values are secrets by their name. */
const SECRET_PARAM =
  /^(api[-_]?key|key|token|access[-_]?token|auth|authorization|password|passwd|secret|sig|signature|session|sessionid|code)$/i;

/** Secrets shorter than this are removed only where they stand (a header, a query value), not searched for in text. */
const MIN_SEARCHED_SECRET = 8;

/** What the reader collects while reading: the secrets seen, bounded. */
export interface SecretSink {
  secrets: Set<string>;
  /** Header names (lower case) whose values the user named secret. */
  headers: ReadonlySet<string>;
}

const MAX_SECRETS = 1000;

/** Request headers a browser sets by itself, left out of the exchange (and of its curl line). */
const BROWSER_HEADERS =
  /^(accept-encoding|accept-language|connection|content-length|host|origin|referer|user-agent|upgrade-insecure-requests|priority|sec-.*|dnt|cache-control|pragma)$/;

function keep(sink: SecretSink, value: string): void {
  if (value.length >= MIN_SEARCHED_SECRET && sink.secrets.size < MAX_SECRETS) sink.secrets.add(value);
}

function asList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object')
    : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function headersOf(list: unknown, sink: SecretSink, side: 'request' | 'response'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of asList(list)) {
    const name = text(h.name)?.toLowerCase();
    const value = text(h.value) ?? '';
    // HTTP/2 pseudo-headers (`:authority`) are the request line; what a browser adds on its own says nothing of the
    // contract and would bury the curl line.
    if (name === undefined || name.startsWith(':') || (side === 'request' && BROWSER_HEADERS.test(name))) continue;
    let shown = value;
    if (name === 'cookie' || name === 'set-cookie') {
      for (const part of value.split(/[;\n]/)) keep(sink, part.split('=').slice(1).join('=').trim());
      shown = REDACTED;
    } else if (name === 'authorization' || name === 'proxy-authorization') {
      const [scheme, ...rest] = value.trim().split(/\s+/);
      keep(sink, rest.join(' '));
      keep(sink, value.trim());
      shown = rest.length > 0 ? `${scheme} ${REDACTED}` : REDACTED;
    } else if (sink.headers.has(name)) {
      keep(sink, value);
      shown = REDACTED;
    }
    out[name] =
      out[name] === undefined
        ? shown
        : `${out[name]}${side === 'response' && name === 'set-cookie' ? '\n' : ', '}${shown}`;
  }
  return out;
}

/** The URL with secret-looking query values and credentials replaced (and collected). */
function cleanUrl(raw: string, sink: SecretSink): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.username || url.password) {
    keep(sink, decodeURIComponent(url.password));
    url.username = url.username ? REDACTED : '';
    url.password = url.password ? REDACTED : '';
  }
  let changed = false;
  for (const [name, value] of url.searchParams)
    if (SECRET_PARAM.test(name) && value !== '') {
      keep(sink, value);
      changed = true;
    }
  if (!changed) return url.href;
  const parts = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return SECRET_PARAM.test(decoded) && value.length > 0 ? `${name}=${encodeURIComponent(REDACTED)}` : pair;
    });
  url.search = `?${parts.join('&')}`;
  return url.href;
}

/** Reads at most MAX_BODY_BYTES of a file beside the HAR (Playwright's `_file`); never outside its folder. */
function attached(harFile: string, name: string): Buffer | undefined {
  const dir = dirname(harFile);
  const path = join(dir, name);
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_BODY_BYTES + 1);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A body of the HAR: its bytes when recorded (a file beside the HAR, base64 or text), else undefined. An empty text
 * where the HAR gives a size above 0 is a body not recorded (Playwright's `omit` writes `text: ""`).
 */
function bodyBytes(content: Record<string, unknown> | undefined, harFile: string, size: number): Buffer | undefined {
  if (!content) return undefined;
  const file = text(content._file);
  if (file !== undefined) return attached(harFile, file);
  const body = text(content.text);
  if (body === undefined || (body === '' && size > 0)) return undefined;
  return content.encoding === 'base64' ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Why an entry got no answer, or undefined when it got one. */
function unansweredReason(response: Record<string, unknown> | undefined): string | undefined {
  const status = response?.status;
  const error = text(response?._error) ?? text(response?._failureText);
  if (typeof status !== 'number' || status <= 0) return error ? `no answer (${error})` : 'no answer (status 0)';
  if (error) return `no answer (${error})`;
  return undefined;
}

/** The entry as a RecordedEntry; its secrets go to `sink`. */
export function recordedEntry(read: HarEntryRead, seq: number, sink: SecretSink): RecordedEntry {
  const e = read.entry;
  const req = record(e.request)!;
  const res = record(e.response);
  const startedAt = text(e.startedDateTime) ?? '';
  const rawAuth = asList(req.headers).find((h) => text(h.name)?.toLowerCase() === 'authorization');
  const headers = headersOf(req.headers, sink, 'request');
  const post = record(req.postData);
  const declared = typeof req.bodySize === 'number' ? req.bodySize : 0;
  const sent = bodyBytes(post, read.file, declared);
  const requestBody = sent !== undefined ? 'recorded' : post !== undefined || declared > 0 ? 'notRecorded' : 'none';
  const exchange: Exchange = {
    request: {
      method: String(req.method).toUpperCase(),
      url: cleanUrl(String(req.url), sink),
      headers,
      ...(sent === undefined ? {} : { body: sent.subarray(0, MAX_BODY_BYTES).toString('utf8') }),
    },
    durationMs: typeof e.time === 'number' && e.time >= 0 ? e.time : 0,
  };
  const unanswered = unansweredReason(res);
  const content = record(res?.content);
  const got = bodyBytes(content, read.file, typeof content?.size === 'number' ? content.size : 0);
  if (!unanswered && res) {
    const resHeaders = headersOf(res.headers, sink, 'response');
    const bytes = got?.length ?? (typeof content?.size === 'number' ? Math.max(0, content.size) : 0);
    const body = got === undefined ? '' : got.subarray(0, MAX_BODY_BYTES).toString('utf8');
    exchange.response = buildResponse(res.status as number, resHeaders, body, bytes);
  }
  const authValue = text(rawAuth?.value)?.trim();
  const [scheme = '', ...credentials] = authValue?.split(/\s+/) ?? [];
  return {
    seq,
    file: read.file,
    index: read.index,
    startedAt,
    time: Date.parse(startedAt),
    ...(read.page === undefined ? {} : { page: read.page }),
    exchange,
    requestBody,
    // A body the HAR says is empty (size 0) was recorded: there was nothing to keep.
    responseBody: got !== undefined || content?.size === 0,
    ...(unanswered ? { unanswered } : {}),
    ...(authValue === undefined
      ? {}
      : {
          auth: {
            scheme,
            empty: credentials.join(' ') === '',
            digest: createHash('sha256').update(credentials.join(' ')).digest('hex').slice(0, 16),
          },
        }),
  };
}
