/**
 * The `Host` allow-list (as Vite's `server.allowedHosts`): against DNS
 * rebinding, where a page on the attacker's name, re-pointed at 127.0.0.1,
 * talks to the mock as its own origin. Its requests still say the attacker's
 * name in `Host`, so only names the developer uses are answered: `localhost`,
 * `*.localhost`, any IP address (an address cannot be rebound), the name the
 * mock was bound to, and those given.
 * @see ../../docs/mock.md "Security"
 */
import { isIP } from 'node:net';
import { badOption } from '../core/errors.ts';
import { TextMemo } from '../core/memo.ts';
import { type ApiResponse, ErrorCode, errorResponse } from '../core/responses.ts';

/** Decides, per `Host` header, whether the mock answers. */
export type HostCheck = (host: string | undefined) => boolean;

/**
 * The check for `allowed` (names; `.example.com` also allows its subdomains, as in Vite; `true` or `'*'`
 * allows any) plus the defaults; throws a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) naming an entry that is not a host name.
 */
export function hostCheck(allowed: readonly string[] | true | undefined, boundHost?: string): HostCheck {
  if (allowed === true || (Array.isArray(allowed) && allowed.includes('*'))) return () => true;
  if (allowed !== undefined && !Array.isArray(allowed))
    throw badOption('allowedHosts', 'must be an array of host names, or true for any');
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of allowed ?? []) {
    const name = typeof entry === 'string' ? entry.trim().toLowerCase().replace(/\.$/, '') : '';
    if (!/^\.?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$|^\[[0-9a-f:.]+\]$/.test(name))
      throw badOption(
        'allowedHosts',
        `: ${JSON.stringify(entry)} is not a host name (give names like app.test or .example.com, no port)`,
      );
    if (name.startsWith('.')) {
      suffixes.push(name);
      exact.add(name.slice(1));
    } else exact.add(name);
  }
  if (boundHost !== undefined && isIP(boundHost) === 0) exact.add(boundHost.toLowerCase());
  // The few Host values a client sends are remembered, so the check is one lookup per request (the memo compares
  // the last one found first: the same client sends the same Host).
  const seen = new TextMemo<boolean>(256, 1024);
  return (host) => {
    if (host === undefined) return true; // HTTP/1.0 without Host: no browser sends that.
    const known = seen.get(host);
    if (known !== undefined) return known;
    const name = hostName(host);
    const ok =
      name !== undefined &&
      (name === 'localhost' ||
        name.endsWith('.localhost') ||
        isIP(name.startsWith('[') ? name.slice(1, -1) : name) !== 0 ||
        exact.has(name) ||
        suffixes.some((suffix) => name.endsWith(suffix)));
    return seen.keep(host, ok);
  };
}

/** The host name of a `Host` header, lower case, without port or trailing dot (`[::1]` keeps its brackets). */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]*)(?::[0-9]*)?$/.exec(host.trim());
  if (!match || match[1] === '') return undefined;
  return match[1]!.toLowerCase().replace(/\.$/, '');
}

/** The 403 Error for a `Host` not allowed, naming the flag that allows it. */
export function hostRefusal(host: string): ApiResponse {
  const name = hostName(host) ?? host;
  const shown = JSON.stringify(name.slice(0, 200));
  return errorResponse(
    403,
    ErrorCode.hostNotAllowed,
    `Blocked request. This host (${shown}) is not allowed. To allow it, start the mock with ` +
      `--allowed-hosts ${/^[a-z0-9.[\]:_-]+$/.test(name) ? name : '<host>'} (allowedHosts in startMockServer); see docs/mock.md "Security"`,
  );
}
