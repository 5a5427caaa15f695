/**
 * Could the run happen? The checks that end a run with exit 2 and one line
 * saying what to fix, before the server is blamed for anything: a first
 * request that shows the suite is not talking to the API at all: nothing
 * listening, no answer within the timeout, TLS on one side only, something
 * that is not HTTP/1.1, or no API under the base URL (with a hint when the
 * host answers under `/v1`), or a proxy that answers for the server.
 */

import { isIP } from 'node:net';
import { connect, type TLSSocket } from 'node:tls';
import type { Client } from '../client/client.ts';
import { formatDuration } from '../client/duration.ts';
import { PROXY_ANSWERED, proxyOwnAnswer } from '../client/proxy.ts';
import { ConformanceError, EXCHANGE_ERROR_CODES } from '../errors.ts';
import type { Exchange } from '../types.ts';

/** The request that opens every run: cheap, read-only, and answered by any Petstore. */
export const FIRST_REQUEST = { method: 'GET', path: '/pets?limit=1' } as const;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;

/** Options of {@link preflight}. */
interface PreflightOptions {
  client: Client;
  /** The base URL as given. */
  baseUrl: string;
  timeoutMs: number;
  /** Probe for TLS on the socket when an http: target closes without answering (off with an injected dispatcher). */
  probeTls: boolean;
  /** The proxy the run goes through (as shown, and where it came from), for the messages that concern it. */
  proxy?: { shown: string; source: string } | undefined;
  /** The run's TLS material (for the probe that asks whether an https: target wants a client certificate). */
  tls?: { ca?: string; cert?: string; key?: string } | undefined;
}

/** When the run goes through a proxy and the first request failed at the proxy: the line that says so. */
function proxyProblem(code: string, message: string, o: PreflightOptions): ConformanceError | undefined {
  if (!o.proxy) return undefined;
  const proxy = `the proxy ${o.proxy.shown} (from ${o.proxy.source})`;
  const status = /Proxy response \((\d{3})\)|\((407)\)|answered (\d{3}) itself to CONNECT/.exec(message);
  const answered = status?.[1] ?? status?.[2] ?? status?.[3];
  if (answered === '407')
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_PROXY',
      `${proxy} asks for credentials (407 Proxy Authentication Required): give them in the proxy URL, http://user:password@host:port`,
    );
  if (answered)
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_PROXY',
      `${proxy} did not open a connection to ${new URL(o.baseUrl).host} (it answered ${answered}): check the base URL, or NO_PROXY for hosts the proxy cannot reach`,
    );
  if (UNREACHABLE.has(code))
    return new ConformanceError('PETSTORE_CONFORMANCE_PROXY', `cannot reach ${proxy}: ${code} ${message}`);
  return undefined;
}

/** Sends the first request and throws a ConformanceError when its fate shows the run cannot test the server. */
export async function preflight(options: PreflightOptions): Promise<void> {
  let ex = await options.client.send(FIRST_REQUEST);
  // One hiccup (a reset on a reused connection) is not yet a dead target.
  if (!ex.response && isHiccup(ex)) ex = await options.client.send(FIRST_REQUEST);
  if (!ex.response) throw await transportProblem(ex, options);
  if (ex.error?.code === PROXY_ANSWERED) throw proxyAnswered(ex, options);
  if (ex.response.status === 404) throw await notFound(options);
}

/** The first request answered by the proxy itself (forwarded in absolute form): it never reached the server. */
function proxyAnswered(ex: Exchange, o: PreflightOptions): ConformanceError {
  const { status, headers } = ex.response!;
  const proxy = o.proxy ? `the proxy ${o.proxy.shown} (from ${o.proxy.source})` : 'the proxy';
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_PROXY',
    `${proxy} answered the first request (${FIRST_REQUEST.method} ${ex.request.url}) itself, with ${status} (${proxyOwnAnswer(status, headers)}): it did not pass it on to ${new URL(o.baseUrl).host}; check the base URL, or NO_PROXY for hosts the proxy cannot reach`,
  );
}

function isHiccup(ex: Exchange): boolean {
  const code = ex.error?.code ?? '';
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

async function transportProblem(ex: Exchange, o: PreflightOptions): Promise<ConformanceError> {
  const { code, message } = ex.error ?? { code: EXCHANGE_ERROR_CODES.requestFailed, message: 'no response' };
  const url = new URL(o.baseUrl);
  const request = `${FIRST_REQUEST.method} ${ex.request.url}`;
  const atProxy = proxyProblem(code, message, o);
  if (atProxy) return atProxy;
  const clientCert = url.protocol === 'https:' && !o.proxy ? await clientCertProblem(code, url, o) : undefined;
  if (clientCert) return clientCert;
  if (UNREACHABLE.has(code))
    return new ConformanceError('PETSTORE_CONFORMANCE_UNREACHABLE', `cannot reach ${o.baseUrl}: ${code} ${message}`);
  if (code === EXCHANGE_ERROR_CODES.timeout)
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_NO_ANSWER',
      `no answer within ${formatDuration(o.timeoutMs)} to the first request (${request}): check that the server is up and serving this URL, or raise --timeout`,
    );
  if (url.protocol === 'https:' && !code.includes('_ALERT_') && (code.startsWith('ERR_SSL_') || code === 'EPROTO'))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} does not speak TLS (${code}): use ${withProtocol(o.baseUrl, 'http:')}`,
    );
  if (url.protocol === 'https:' && CERTIFICATE.test(code))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `the TLS certificate of ${url.host} is not trusted (${code}): give its CA with --ca FILE (ca in runConformance)`,
    );
  if (url.protocol === 'http:' && o.probeTls && (await speaksTls(url, o.timeoutMs)))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} speaks TLS, not plain HTTP: use ${withProtocol(o.baseUrl, 'https:')}`,
    );
  if (code === EXCHANGE_ERROR_CODES.notHttp)
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_PROTOCOL_MISMATCH',
      `${url.host} does not answer in HTTP/1.1 (${message}): check the port and the scheme`,
    );
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_TRANSPORT_FAILED',
    `the first request (${request}) failed in transport twice: ${code}: ${message}`,
  );
}

const CLIENT_CERT_WANTED = /CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE/;
const CLIENT_CERT_REFUSED =
  /UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|CERTIFICATE_EXPIRED/;

/**
 * A TLS server that wants a client certificate closes the connection once it sees none (TLS 1.3: after the
 * handshake, so the request sees only "other side closed"); its alert says why. Probed on a socket of its own.
 */
async function clientCertProblem(code: string, url: URL, o: PreflightOptions): Promise<ConformanceError | undefined> {
  const alert = code.includes('_ALERT_')
    ? code
    : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE'
      ? await tlsAlert(url, o)
      : undefined;
  if (!alert) return undefined;
  const sent = o.tls?.cert !== undefined;
  if (!sent && CLIENT_CERT_WANTED.test(alert))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} asks for a client certificate (${alert}): give it with --cert FILE --cert-key FILE (cert and key in runConformance)`,
    );
  if (sent && (CLIENT_CERT_REFUSED.test(alert) || CLIENT_CERT_WANTED.test(alert) || alert.startsWith('closed')))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} does not accept the client certificate given with --cert (${alert}): check that its CA is the one the server trusts`,
    );
  return undefined;
}

/**
 * A TLS socket to the target for a probe (any certificate accepted: a probe asks only what the target does), and
 * a `done` that destroys it and settles once; no answer within `timeoutMs` (at most 2 s) settles with `onTimeout`.
 */
function probeSocket<T>(
  url: URL,
  defaultPort: number,
  timeoutMs: number,
  resolve: (value: T) => void,
  onTimeout: T,
  extra: { cert?: string; key?: string } = {},
): { socket: TLSSocket; done: (value: T) => void } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket = connect({
    host,
    port: Number(url.port || defaultPort),
    rejectUnauthorized: false,
    ...extra,
    // SNI carries names only (RFC 6066); Node warns when given an address.
    ...(isIP(host) === 0 ? { servername: host } : {}),
  });
  const done = (value: T): void => {
    socket.destroy();
    resolve(value);
  };
  socket.setTimeout(Math.min(timeoutMs, 2000), () => done(onTimeout));
  return { socket, done };
}

/** The TLS alert an https: target sends to a connection like the run's, after one request; undefined when none. */
function tlsAlert(url: URL, o: PreflightOptions): Promise<string | undefined> {
  return new Promise((resolve) => {
    const cert = o.tls?.cert ? { cert: o.tls.cert, key: o.tls.key } : {};
    const { socket, done } = probeSocket<string | undefined>(url, 443, o.timeoutMs, resolve, undefined, cert);
    let secure = false;
    socket.once('secureConnect', () => {
      secure = true;
      socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code?.includes('_ALERT_') ? err.code : undefined));
    socket.once('data', () => done(undefined));
    // Some servers (Node's among them) refuse a client certificate by closing the connection, with no alert.
    socket.once('close', () =>
      done(secure && o.tls?.cert ? 'closed after the handshake, answering nothing' : undefined),
    );
  });
}

function withProtocol(baseUrl: string, protocol: 'http:' | 'https:'): string {
  return baseUrl.replace(/^https?:/i, protocol);
}

/** Whether a TLS handshake succeeds on the target's socket (any certificate accepted: this only asks which protocol it speaks). */
function speaksTls(url: URL, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { socket, done } = probeSocket<boolean>(url, 80, timeoutMs, resolve, false);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function notFound(o: PreflightOptions): Promise<ConformanceError> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const where = `no Petstore API at ${base}: ${FIRST_REQUEST.method} ${base}${FIRST_REQUEST.path} answered 404`;
  if (!/\/v1$/.test(base)) {
    const under = await o.client.send({ method: 'GET', path: `/v1${FIRST_REQUEST.path}` });
    if (under.response && under.response.status !== 404)
      return new ConformanceError(
        'PETSTORE_CONFORMANCE_API_NOT_FOUND',
        `${where}; it answers under /v1: use --base-url ${base}/v1`,
      );
  }
  const origin = new URL(base).origin;
  if (base !== origin) {
    // A server that serves the paths at the host's root (as Prism does) answers there.
    const atRoot = await o.client.send(FIRST_REQUEST, { fromOrigin: true });
    if (atRoot.response && atRoot.response.status !== 404)
      return new ConformanceError(
        'PETSTORE_CONFORMANCE_API_NOT_FOUND',
        `${where}; the API answers at the host's root (${FIRST_REQUEST.method} ${origin}${FIRST_REQUEST.path} answered ${atRoot.response.status}): use --base-url ${origin}`,
      );
  }
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_API_NOT_FOUND',
    `${where}: the base URL must be where the API's paths start, e.g. https://host/v1 (GET /pets is under it)`,
  );
}
