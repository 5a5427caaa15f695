import { describe, expect, it } from 'vitest';
import { bypassesProxy, chooseProxy, proxyOwnAnswer, proxySecrets, shownProxy, tunnelRefusal } from './proxy.ts';

const url = (u: string) => new URL(u);

describe('which proxy a run takes', () => {
  const env = { HTTPS_PROXY: 'http://secure.proxy:3128', http_proxy: 'http://plain.proxy:8080' };

  it('takes the variable of the target scheme, lowercase first, and says where it came from', () => {
    expect(chooseProxy(url('https://staging.example/v1'), undefined, env)).toEqual({
      url: 'http://secure.proxy:3128',
      source: 'HTTPS_PROXY',
    });
    expect(chooseProxy(url('http://staging.example/v1'), undefined, { ...env, HTTP_PROXY: 'http://upper:1' })).toEqual({
      url: 'http://plain.proxy:8080',
      source: 'http_proxy',
    });
    expect(chooseProxy(url('https://staging.example/v1'), undefined, { http_proxy: 'http://p:1' })).toBeUndefined();
  });

  it('an explicit proxy wins over the variables and NO_PROXY, and applies to loopback too', () => {
    const noProxy = { ...env, NO_PROXY: '*' };
    expect(chooseProxy(url('http://127.0.0.1:4010/v1'), 'http://mine:1', noProxy)).toEqual({
      url: 'http://mine:1',
      source: 'proxy',
    });
  });

  it('never sends a loopback target to the environment proxy', () => {
    for (const target of ['http://127.0.0.1:4010/v1', 'http://localhost:4010/v1', 'http://[::1]:4010/v1'])
      expect(chooseProxy(url(target), undefined, { HTTP_PROXY: 'http://p:1' })).toBeUndefined();
  });

  it('NO_PROXY names hosts, their subdomains, ports and all', () => {
    const target = url('https://api.staging.example:8443/v1');
    expect(bypassesProxy(target, 'staging.example')).toBe(true);
    expect(bypassesProxy(target, '.staging.example')).toBe(true);
    expect(bypassesProxy(target, '*.staging.example')).toBe(true);
    expect(bypassesProxy(target, 'other.example, staging.example:8443')).toBe(true);
    expect(bypassesProxy(target, 'staging.example:443')).toBe(false);
    expect(bypassesProxy(target, 'ging.example')).toBe(false);
    expect(bypassesProxy(target, '*')).toBe(true);
    expect(bypassesProxy(target, '')).toBe(false);
    expect(chooseProxy(target, undefined, { HTTPS_PROXY: 'http://p:1', no_proxy: 'staging.example' })).toBeUndefined();
  });

  it('shows a proxy without its credentials, and lists them as secrets in every form', () => {
    expect(shownProxy('http://qa:p%40ss@proxy.corp:3128')).toBe('http://[REDACTED]@proxy.corp:3128');
    expect(shownProxy('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128');
    expect(proxySecrets('http://qa:p%40ss@proxy.corp:3128')).toEqual(
      expect.arrayContaining(['p%40ss', 'p@ss', 'qa:p@ss', Buffer.from('qa:p@ss').toString('base64')]),
    );
    expect(proxySecrets('http://proxy.corp:3128')).toEqual([]);
  });
});

describe('whose answer came back through a forwarding proxy', () => {
  const via = { via: '1.1 proxy.corp (squid/5.7)' };
  it("is the proxy's own when it carries X-Squid-Error, or a Proxy-Status error (RFC 9209)", () => {
    expect(proxyOwnAnswer(403, { ...via, 'x-squid-error': 'ERR_ACCESS_DENIED 0' })).toBe(
      'X-Squid-Error: ERR_ACCESS_DENIED 0',
    );
    expect(proxyOwnAnswer(503, { 'proxy-status': 'proxy.corp; error=connection_refused' })).toBe(
      'Proxy-Status: proxy.corp; error=connection_refused',
    );
    expect(
      proxyOwnAnswer(504, { 'proxy-status': 'cdn; received-status=200, proxy.corp; error=http_response_timeout' }),
    ).toMatch(/^Proxy-Status: /);
  });

  it("is a gateway's when it is a 502 or 504 with Via (RFC 9110 §15.6.3, §15.6.5)", () => {
    expect(proxyOwnAnswer(502, via)).toBe("a gateway's status, with Via: 1.1 proxy.corp (squid/5.7)");
    expect(proxyOwnAnswer(504, via)).toBe("a gateway's status, with Via: 1.1 proxy.corp (squid/5.7)");
  });

  it("is the server's otherwise: Via is on every forwarded answer, a Proxy-Status without error only reports", () => {
    expect(proxyOwnAnswer(403, via)).toBeUndefined();
    expect(proxyOwnAnswer(500, via)).toBeUndefined();
    expect(proxyOwnAnswer(502, {})).toBeUndefined();
    expect(proxyOwnAnswer(404, { ...via, 'proxy-status': 'proxy.corp; received-status=404' })).toBeUndefined();
    expect(proxyOwnAnswer(200, { 'proxy-status': 'proxy.corp; details="error=none"' })).toBeUndefined();
  });

  it("reads the status a proxy refused a CONNECT with from undici's message", () => {
    expect(tunnelRefusal('Proxy response (403) !== 200 when HTTP Tunneling')).toBe('403');
    expect(tunnelRefusal('connect ECONNREFUSED 127.0.0.1:9')).toBeUndefined();
  });
});
