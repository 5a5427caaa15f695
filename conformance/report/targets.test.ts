import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConformanceError } from '../errors.ts';
import type { Report } from '../types.ts';
import { parseReportTarget, parseReportTargets, reporterUsage, writeReports } from './targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('report targets: one shape, one parser, one writer', () => {
  it('reads NAME and NAME=FILE into { reporter, file }, a file name that holds = included', () => {
    expect(parseReportTarget('junit')).toEqual({ reporter: 'junit' });
    expect(parseReportTarget('json=out/a=b.json')).toEqual({ reporter: 'json', file: 'out/a=b.json' });
    expect(parseReportTargets(undefined)).toEqual([{ reporter: 'pretty' }]);
    expect(() => parseReportTarget('xml')).toThrow('unknown reporter "xml" (pretty, json, junit, html, har)');
    expect(() => parseReportTarget('json=')).toThrow('--reporter json= needs a file name');
  });

  it('refuses two reporters on standard output, and two on one file, before anything is written', () => {
    const refused = (specs: string[]) => {
      try {
        parseReportTargets(specs);
      } catch (e) {
        expect(e).toBeInstanceOf(ConformanceError);
        return (e as ConformanceError).message;
      }
      throw new Error('not refused');
    };
    expect(refused(['pretty', 'junit'])).toBe(
      '--reporter pretty and --reporter junit would all write to standard output, one after the other: give all but one a file (--reporter junit=FILE)',
    );
    expect(refused(['json=a/r.json', 'html=a/../a/r.json'])).toMatch(
      /--reporter json and --reporter html would both write a\/\.\.\/a\/r\.json/,
    );
    expect(parseReportTargets(['pretty', 'junit=r.xml', 'json=r.json'])).toHaveLength(3);
    // The library's writer holds the same rule: nothing is written when the targets are refused.
    const out = { text: '', write: (t: string) => (out.text += t) };
    expect(() => writeReports({} as Report, [{ reporter: 'json' }, { reporter: 'junit' }], { out })).toThrow(
      /would all write to standard output/,
    );
    expect(out.text).toBe('');
  });

  it('writes files and the one stream target; a file it cannot write is returned, the others still written', () => {
    const report = {
      tool: 'petstore-conformance',
      runId: 'r1',
      baseUrl: 'http://h/v1',
      startedAt: '2025-01-01T00:00:00.000Z',
      durationMs: 1,
      options: { strict: false, readOnly: false, concurrency: 8, timeoutMs: 10000 },
      cases: [],
      deselected: 0,
      summary: { passed: 0, failed: 0, warned: 0, info: 0, skipped: 0, notApplicable: 0, total: 0 },
      statusTable: [],
      created: { count: 0, ids: [], namePrefix: 'conformance-r1-' },
      throttling: { byStatus: {}, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: 60000 },
      seed: 1,
      ok: true,
    } as unknown as Report;
    const out = { text: '', write: (t: string) => (out.text += t) };
    const failed = writeReports(
      report,
      [
        { reporter: 'json', file: join(dir, 'r.json') },
        { reporter: 'junit', file: join(dir, 'r.json', 'no.xml') },
        { reporter: 'junit' },
      ],
      { out },
    );
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).runId).toBe(report.runId);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.target.file).toBe(join(dir, 'r.json', 'no.xml'));
    expect(out.text).toMatch(/^<\?xml/);
  });

  it('says in help that at most one reporter goes to stdout, and lists every reporter', () => {
    const help = reporterUsage(24);
    expect(help).toMatch(/at most one to stdout/);
    for (const name of ['pretty', 'json', 'junit', 'html', 'har']) expect(help).toMatch(new RegExp(`\\n {26}${name} `));
  });
});
