/**
 * `--shard i/n` and `merge` as a CI matrix runs them: two shards against a server, their JSON reports merged, equal
 * to the unsharded run (the same cases in the same order, outcomes, counts, causes, status table and exit code),
 * the merged JUnit valid XML with one suite per shard; and every merge that would pass for a run that did not happen
 * refused (shards of different runs, one missing, one twice, a file that is not a shard's report).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../conformance/cli/command.ts';
import type { Report } from '../conformance/index.ts';
import { type MockServer, startMockServer } from '../mock/node/index.ts';
import { runProcess, tsxEntry } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-shard-'));
let mock: MockServer;
// Past getPet's sunset: getPet answers 404, so cases fail, with causes, and the run exits 1.
beforeAll(async () => {
  mock = await startMockServer({ port: 0, asOf: '2031-01-01' });
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => join(dir, name);
const read = (name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as Report;

/** Runs the command as CI does, against a mock reset to its seed first: every run starts from the same state. */
async function cli(...args: string[]) {
  await mock.reset();
  const { PETSTORE_BASE_URL: _u, PETSTORE_API_KEY: _k, ...env } = process.env;
  const common = ['--base-url', mock.url, '--api-key', 'petstore-dev-key', '--generate', '2', '--run-id', 'ci42'];
  return runProcess([...tsxEntry('conformance/cli.ts'), ...common, ...args], {
    env: { ...env, NO_COLOR: '1' },
    timeoutMs: 240_000,
  });
}

/** The merge command in this process (it opens no socket): its exit code and what it printed. */
async function merge(...args: string[]) {
  let out = '';
  let err = '';
  const sink = (write: (t: string) => void) => ({ write: (t: string) => (write(t), true), isTTY: false });
  const code = await main(
    ['merge', ...args],
    {},
    sink((t) => (out += t)) as unknown as NodeJS.WriteStream,
    sink((t) => (err += t)) as unknown as NodeJS.WriteStream,
  );
  return { code, out, err };
}

const outcomes = (r: Report) => r.cases.map((c) => `${c.id} ${c.outcome}${c.cause ? ` ${c.cause}` : ''}`);

describe('two shards merged equal the unsharded run', () => {
  let codes: { whole: number | null; one: number | null; two: number | null };
  beforeAll(async () => {
    const whole = await cli('--reporter', `json=${file('whole.json')}`, '--reporter', `junit=${file('whole.xml')}`);
    const one = await cli('--shard', '1/2', '--reporter', `json=${file('s1.json')}`);
    const two = await cli('--shard', '2/2', '--reporter', `json=${file('s2.json')}`);
    codes = { whole: whole.code, one: one.code, two: two.code };
  }, 600_000);

  it('the same cases, outcomes, causes, counts, status table and exit code', async () => {
    const merged = await merge(
      file('s2.json'),
      file('s1.json'),
      '--reporter',
      `json=${file('merged.json')}`,
      '--reporter',
      `junit=${file('merged.xml')}`,
      '--reporter',
      `html=${file('merged.html')}`,
    );
    const whole = read('whole.json');
    const m = read('merged.json');
    const [s1, s2] = [read('s1.json'), read('s2.json')];
    // Each shard ran part of it, and something failed: the comparison is not of two empty runs.
    expect(s1.cases.length).toBeGreaterThan(0);
    expect(s2.cases.length).toBeGreaterThan(0);
    expect(s1.cases.length + s2.cases.length).toBe(whole.cases.length);
    expect(whole.summary.failed).toBeGreaterThan(0);
    expect(whole.cases.some((c) => c.id.startsWith('generated.'))).toBe(true);
    expect(outcomes(m)).toEqual(outcomes(whole));
    expect(m.summary).toEqual(whole.summary);
    expect(m.causes?.map((c) => [c.id, c.statement, c.cases])).toEqual(
      whole.causes?.map((c) => [c.id, c.statement, c.cases]),
    );
    expect(m.statusTable).toEqual(whole.statusTable);
    expect(m.ok).toBe(whole.ok);
    expect(codes.whole).toBe(1);
    expect(merged.code).toBe(codes.whole);
    expect(merged.err).toBe('');
    // Each shard named what it created apart, though both were given the same --run-id.
    expect(s1.created.namePrefix).toBe('conformance-ci42-1of2-');
    expect(s2.created.namePrefix).toBe('conformance-ci42-2of2-');
    expect(m.created.count).toBe(s1.created.count + s2.created.count);
  });

  it('the merged JUnit is valid XML, one suite per shard, every case of the whole run in it', () => {
    execFileSync('xmllint', ['--noout', file('merged.xml')]);
    const xml = readFileSync(file('merged.xml'), 'utf8');
    expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'petstore-conformance shard 1/2',
      'petstore-conformance shard 2/2',
    ]);
    const testcases = (text: string) =>
      [...text.matchAll(/<testcase classname="[^"]+" name="([^"]+)"/g)].map((m) => m[1]).sort();
    expect(testcases(xml)).toEqual(testcases(readFileSync(file('whole.xml'), 'utf8')));
    expect(xml).toMatch(/<testsuites name="petstore-conformance" tests="(\d+)" failures="[1-9]/);
  });

  it('refuses shards of different runs, a missing shard, a shard twice, and files that are no shard report', async () => {
    const s2 = read('s2.json');
    writeFileSync(file('other-seed.json'), JSON.stringify({ ...s2, seed: 99 }));
    writeFileSync(file('not-a-report.json'), JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const refused: [string[], string][] = [
      [
        [file('s1.json'), file('other-seed.json')],
        `${file('s1.json')} and ${file('other-seed.json')} are shards of different runs: their seed differ (1, 99)`,
      ],
      [[file('s1.json')], 'shard 2/2 is missing: a merge needs every shard of the run'],
      [
        [file('s1.json'), file('s1.json'), file('s2.json')],
        `shard 1/2 is given twice: ${file('s1.json')} and ${file('s1.json')}`,
      ],
      [
        [file('s1.json'), file('whole.json')],
        `${file('whole.json')} is the report of a whole run, not of a shard (--shard i/n)`,
      ],
      [
        [file('not-a-report.json')],
        `${file('not-a-report.json')}: not a JSON report of petstore-conformance (--reporter json=FILE): no tool "petstore-conformance", no cases, no summary, no statusTable, no created, no throttling, no options, no baseUrl, no startedAt`,
      ],
      [[file('absent.json')], `${file('absent.json')}: cannot be read (ENOENT)`],
      [
        [file('s1.json'), file('s2.json'), '--reporter', 'pretty', '--reporter', 'junit'],
        '--reporter pretty and --reporter junit would all write to standard output',
      ],
    ];
    for (const [args, line] of refused) {
      const r = await merge(...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.split('\n')).toHaveLength(2);
      expect(r.err).toContain(`petstore-conformance merge: ${line}`);
    }
  });
});
