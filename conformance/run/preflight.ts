/**
 * Could the run happen? The checks that end a run with exit 2 and one line
 * saying what to fix, before the server is blamed for anything: a first
 * request that shows the suite is not talking to the API at all: nothing
 * listening, no answer within the timeout, TLS on one side only, something
 * that is not HTTP/1.1, or no API under the base URL (with a hint when the
 * host answers under `/v1`).
 */
import { isIP } from 'node:net';
import { connect } from 'node:tls';
import type { Client } from '../client/client.ts';
import { formatDuration } from '../client/duration.ts';
import { ConformanceError } from '../errors.ts';
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
export interface PreflightOptions {
  client: Client;
  /** The base URL as given. */
  baseUrl: string;
  timeoutMs: number;
  /** Probe for TLS on the socket when an http: target closes without answering (off with an injected dispatcher). */
  probeTls: boolean;
}

/** Sends the first request and throws a ConformanceError when its fate shows the run cannot test the server. */
export async function preflight(options: PreflightOptions): Promise<void> {
  let ex = await options.client.send(FIRST_REQUEST);
  // One hiccup (a reset on a reused connection) is not yet a dead target.
  if (!ex.response && isHiccup(ex)) ex = await options.client.send(FIRST_REQUEST);
  if (!ex.response) throw await transportProblem(ex, options);
  if (ex.response.status === 404) throw await notFound(options);
}

function isHiccup(ex: Exchange): boolean {
  const code = ex.error?.code ?? '';
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

async function transportProblem(ex: Exchange, o: PreflightOptions): Promise<ConformanceError> {
  const { code, message } = ex.error ?? { code: 'PETSTORE_REQUEST_FAILED', message: 'no response' };
  const url = new URL(o.baseUrl);
  const request = `${FIRST_REQUEST.method} ${ex.request.url}`;
  if (UNREACHABLE.has(code))
    return new ConformanceError('PETSTORE_CONFORMANCE_UNREACHABLE', `cannot reach ${o.baseUrl}: ${code} ${message}`);
  if (code === 'PETSTORE_TIMEOUT')
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_NO_ANSWER',
      `no answer within ${formatDuration(o.timeoutMs)} to the first request (${request}): check that the server is up and serving this URL, or raise --timeout`,
    );
  if (url.protocol === 'https:' && (code.startsWith('ERR_SSL_') || code === 'EPROTO'))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} does not speak TLS (${code}): use ${withProtocol(o.baseUrl, 'http:')}`,
    );
  if (url.protocol === 'https:' && CERTIFICATE.test(code))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `the TLS certificate of ${url.host} is not trusted (${code}): give its CA in NODE_EXTRA_CA_CERTS=FILE`,
    );
  if (url.protocol === 'http:' && o.probeTls && (await speaksTls(url, o.timeoutMs)))
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_TLS',
      `${url.host} speaks TLS, not plain HTTP: use ${withProtocol(o.baseUrl, 'https:')}`,
    );
  if (code === 'PETSTORE_NOT_HTTP')
    return new ConformanceError(
      'PETSTORE_CONFORMANCE_PROTOCOL_MISMATCH',
      `${url.host} does not answer in HTTP/1.1 (${message}): check the port and the scheme`,
    );
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_TRANSPORT_FAILED',
    `the first request (${request}) failed in transport twice: ${code}: ${message}`,
  );
}

function withProtocol(baseUrl: string, protocol: 'http:' | 'https:'): string {
  return baseUrl.replace(/^https?:/i, protocol);
}

/** Whether a TLS handshake succeeds on the target's socket (any certificate accepted: this only asks which protocol it speaks). */
function speaksTls(url: URL, timeoutMs: number): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 80),
      rejectUnauthorized: false,
      // SNI carries names only (RFC 6066); Node warns when given an address.
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(Math.min(timeoutMs, 2000), () => done(false));
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
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_API_NOT_FOUND',
    `${where}: the base URL must be the API's root, ending in its version (e.g. https://host/v1)`,
  );
}
