import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConformanceError } from '../errors.ts';
import { checkOptions } from './settings.ts';

const base = { baseUrl: 'https://staging.example/v1', apiKey: 'k-123456789', env: {} };
const ca = readFileSync(new URL('../../test/fixtures/tls/ca.pem', import.meta.url), 'utf8');

function refusal(options: object): string {
  try {
    checkOptions({ ...base, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(ConformanceError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('the network options, checked once', () => {
  it('extra headers go to the client in lowercase and their values become secrets', () => {
    const s = checkOptions({ ...base, headers: { 'X-Tenant': 'qa-7', 'X-Gateway-Token': ' t0k ' } });
    expect(s.client.headers).toEqual({ 'x-tenant': 'qa-7', 'x-gateway-token': 't0k' });
    // The key, the near keys the auth cases send (one edit from it: hidden like the key), then the header values.
    expect(s.secrets).toEqual([
      'k-123456789',
      'k-123456780',
      'k-12345678',
      'k-1234567890',
      'K-123456789',
      'qa-7',
      't0k',
    ]);
  });

  it.each([
    [{ headers: { Authorization: 'Bearer x' } }, /carries the API key/],
    [{ headers: { host: 'evil' } }, /host header is set by the suite itself/],
    [{ headers: { 'Bad Name': 'x' } }, /not a valid HTTP header name/],
    [{ headers: { 'X-A': 'line\r\nX-Injected: 1' } }, /one line of text/],
    [{ headers: { 'X-A': '1', 'x-a': '2' } }, /given twice/],
    [{ ca: 'not pem' }, /ca must be PEM text/],
    [{ cert: ca }, /needs both cert and key/],
    [{ proxy: 'socks5://p:1' }, /http:\/\/ or https:\/\/ URL/],
    [{ proxy: 'http://p:1', dispatcher: { request() {}, dispatch() {} } }, /cannot apply to an injected dispatcher/],
  ])('refuses %j', (options, message) => {
    expect(refusal(options)).toMatch(message);
  });

  it('takes the proxy from the environment given, hides its credentials in what the report shows', () => {
    const s = checkOptions({ ...base, env: { HTTPS_PROXY: 'http://qa:s3cr3t@proxy.corp:3128' } });
    expect(s.proxy).toEqual({ shown: 'http://[REDACTED]@proxy.corp:3128', source: 'HTTPS_PROXY' });
    expect(s.client.proxy?.url).toBe('http://qa:s3cr3t@proxy.corp:3128');
    expect(s.secrets).toEqual(expect.arrayContaining(['s3cr3t', 'qa:s3cr3t']));
    expect(checkOptions({ ...base, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'staging.example' } }).proxy).toBe(
      undefined,
    );
  });
});
