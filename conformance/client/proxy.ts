/**
 * Which proxy a run goes through: `proxy` when given, else the variables every
 * CLI in this field reads (`HTTPS_PROXY` for https targets, `HTTP_PROXY` for
 * http, either case, lowercase first as curl does), unless `NO_PROXY` names
 * the target (comma- or space-separated hosts; `*` for all; a leading `.` or
 * `*.` and plain names match the host and its subdomains; an optional
 * `:port`). These are the rules of curl and of undici's EnvHttpProxyAgent, with
 * one more, Go's: a loopback target (localhost, 127.0.0.0/8, ::1) never takes
 * the environment's proxy, which could not reach it. The run decides once, for
 * its one origin, so that the report can say it. And what came back through
 * the proxy may be the proxy's own answer, not the server's: proxyOwnAnswer.
 */
import { EXCHANGE_ERROR_CODES } from '../errors.ts';

/** The proxy of a run and where it came from. */
export interface ProxyChoice {
  /** The proxy URL as given (credentials included: a secret). */
  url: string;
  /** `proxy` (an option or `--proxy`) or the name of the variable it came from. */
  source: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function fromEnv(env: NodeJS.ProcessEnv, name: string): ProxyChoice | undefined {
  for (const key of [name.toLowerCase(), name]) {
    const value = env[key]?.trim();
    if (value) return { url: value, source: key };
  }
  return undefined;
}

/** Whether `NO_PROXY`'s list names `target`. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || DEFAULT_PORTS[target.protocol] || '';
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\](?=:|$)/g, ''))!;
    const name = m[1]!.replace(/^\*?\./, '');
    if (m[2] && m[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

function isLoopback(target: URL): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The proxy for `target`: `explicit` when given, else the environment's, unless NO_PROXY names the target. */
export function chooseProxy(
  target: URL,
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
): ProxyChoice | undefined {
  if (explicit !== undefined) return { url: explicit, source: 'proxy' };
  if (isLoopback(target)) return undefined;
  const choice = fromEnv(env, target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  if (!choice) return undefined;
  return bypassesProxy(target, fromEnv(env, 'NO_PROXY')?.url) ? undefined : choice;
}

/** The proxy URL as a report may show it: scheme, host and port; credentials replaced. */
export function shownProxy(url: string): string {
  try {
    const u = new URL(url);
    const credentials = u.username || u.password ? '[REDACTED]@' : '';
    return `${u.protocol}//${credentials}${u.host}`;
  } catch {
    return '[a proxy URL that does not parse]';
  }
}

/** The secrets a proxy URL carries (its user and password, decoded and as sent in Proxy-Authorization), for redaction. */
export function proxySecrets(url: string): string[] {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return [];
    const user = decodeURIComponent(u.username);
    const password = decodeURIComponent(u.password);
    const pair = `${user}:${password}`;
    return [u.username, user, u.password, password, pair, Buffer.from(pair).toString('base64')].filter(
      (s) => s.length > 0,
    );
  } catch {
    return [url];
  }
}

/** The error code of an exchange the run's proxy answered itself: what came back is not the server's. */
export const PROXY_ANSWERED = EXCHANGE_ERROR_CODES.proxyAnswered;

const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/**
 * Why an answer that came back through a forwarding proxy (a request in absolute form) is that proxy's own, or
 * undefined when nothing shows it is not the server's. What proxies add tells it: `X-Squid-Error` (Squid and its
 * derivatives put it on the pages they make, never on one they forward), a `Proxy-Status` member with an `error`
 * parameter (RFC 9209 §2.1.1), and a 502 or 504 with `Via` (RFC 9110 §15.6.3, §15.6.5: a gateway's answers by
 * definition, and Via names the intermediary, §7.6.3). `Via` alone is on every forwarded answer: it is no sign.
 */
export function proxyOwnAnswer(status: number, headers: Readonly<Record<string, string>>): string | undefined {
  const squid = headers['x-squid-error'];
  if (squid !== undefined) return `X-Squid-Error: ${squid}`;
  const proxyStatus = headers['proxy-status'];
  // Parameters are `;name=value`; a quoted string may hold anything, so strings are emptied before looking.
  if (proxyStatus !== undefined && /;\s*error\s*=/.test(proxyStatus.replace(/"(?:[^"\\]|\\.)*"/g, '""')))
    return `Proxy-Status: ${proxyStatus}`;
  if ((status === 502 || status === 504) && headers.via !== undefined)
    return `a gateway's status, with Via: ${headers.via}`;
  return undefined;
}

/** The status a proxy refused a CONNECT with, from undici's error message; undefined for any other error. */
export function tunnelRefusal(message: string): string | undefined {
  return TUNNEL_REFUSED.exec(message)?.[1];
}
