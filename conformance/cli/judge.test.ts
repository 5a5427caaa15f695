import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHar } from '../report/har.ts';
import type { LoggedExchange, Report } from '../types.ts';
import { main } from './command.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-judge-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BASE = 'http://127.0.0.1:9/v1';

function sink(): NodeJS.WriteStream & { text: () => string } {
  let text = '';
  return { write: (s: string) => ((text += s), true), text: () => text, isTTY: false } as never;
}

function exchange(url: string, status: number, body: string, auth = true): LoggedExchange {
  return {
    request: { method: 'GET', url: `${BASE}${url}`, headers: auth ? { authorization: 'Bearer [REDACTED]' } : {} },
    response: { status, headers: { 'content-type': 'application/json' }, body, bytes: body.length },
    durationMs: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A HAR as the suite's har reporter writes it. */
function har(name: string, exchanges: LoggedExchange[]): string {
  const report = {
    runId: 'r',
    baseUrl: BASE,
    exchangeLog: { exchanges, omitted: 0, maxEntries: 10, maxBodyBytes: 1e6 },
  };
  const path = join(dir, name);
  writeFileSync(path, renderHar(report as unknown as Report));
  return path;
}

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = sink();
  const err = sink();
  const code = await main(['judge', ...args], {}, out, err);
  return { code, out: out.text(), err: err.text() };
}

const good = () => har('good.har', [exchange('/pets?limit=1', 200, '[{"id":1,"name":"a","categoryId":1}]')]);
/** The server answers 200 to a request without a key (its fault), and the client sent no key (the client's). */
const both = () => har('both.har', [exchange('/pets', 200, '[]', false)]);
/** Only the server at fault: an Error whose status is not the HTTP status. */
const serverOnly = () =>
  har('server.har', [exchange('/pets/7', 404, '{"code":"not_found","message":"no","status":400}')]);

describe('petstore-conformance judge', () => {
  it('exit 0 when all is well, with the coverage line', async () => {
    const r = await run(good(), '--base-url', BASE);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Coverage: exercised listPets 200; never exercised listPets 401/);
  });

  it('exit 1 on a required failure; --side limits whose failures count', async () => {
    expect((await run(both(), '--base-url', BASE)).code).toBe(1);
    expect((await run(serverOnly(), '--base-url', BASE, '--side', 'client')).code).toBe(0);
    expect((await run(serverOnly(), '--base-url', BASE, '--side', 'server')).code).toBe(1);
    const client = await run(both(), '--base-url', BASE, '--side', 'client');
    expect(client.code).toBe(1);
    expect(client.out).toMatch(/the client: listPets: request key: no Authorization header/);
  });

  it('exit 2 with one line when nothing could be judged, or the file is not a HAR', async () => {
    const elsewhere = await run(good(), '--base-url', 'http://other.test/v1');
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.err).toMatch(
      /^petstore-conformance: nothing could be judged: .*outside http:\/\/other\.test\/v1: 1/,
    );
    const path = join(dir, 'cut.har');
    writeFileSync(path, readFileSync(good(), 'utf8').slice(0, 200));
    const cut = await run(path, '--base-url', BASE);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(
      /^petstore-conformance judge: .*cut\.har: at byte \d+: the file ends in the middle of the JSON \(truncated\)\n$/,
    );
    expect(cut.err.split('\n').length).toBe(2);
  });

  it('writes reports to files, the HAR out included, and refuses bad options in one line', async () => {
    const out = join(dir, 'out.har');
    const r = await run(both(), '--base-url', BASE, '--reporter', `har=${out}`, '--reporter', 'json');
    expect(JSON.parse(readFileSync(out, 'utf8')).log.entries).toHaveLength(1);
    expect(JSON.parse(r.out).traffic.judged).toBe(1);
    const bad = await run(good(), '--base-url', BASE, '--side', 'neither');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'petstore-conformance judge: --side must be both, client or server, got "neither" (see judge --help)\n',
    );
  });

  it('a JSON file that is not a HAR: exit 2, one line naming the file and what is missing, nothing on stdout', async () => {
    const path = join(dir, 'not-a-har.json');
    writeFileSync(path, '{"log":{"version":"1.2"}}');
    const r = await run(path, '--base-url', BASE);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      `petstore-conformance judge: ${path}: log: JSON that is not a HAR: log.entries is missing (a HAR 1.2 log holds version, creator and entries)\n`,
    );
  });

  it('two reporters on standard output: exit 2 and one line, before any file is read', async () => {
    const r = await run(join(dir, 'absent.har'), '--base-url', BASE, '--reporter', 'pretty', '--reporter', 'json');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^petstore-conformance judge: --reporter pretty and --reporter json would all write to standard output, one after the other: give all but one a file \(--reporter json=FILE\) \(see judge --help\)\n$/,
    );
  });
});
