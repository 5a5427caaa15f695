/**
 * The JUnit XML reporter: one testcase per case (warnings as system-out,
 * skips as skipped), run facts and the status table as suite properties.
 */
import type { CaseResult, Report } from '../types.ts';
import {
  causeLines,
  endedLine,
  exchangeLines,
  failedCheckLines,
  footerLines,
  statusTableLines,
  summaryLine,
} from './format.ts';

/** Escapes text for XML content and attributes, dropping characters XML 1.0 cannot hold. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function details(r: CaseResult): string {
  const lines = [`section: ${r.section}`, ...failedCheckLines(r)];
  for (const ex of r.exchanges) lines.push(...exchangeLines(ex));
  return lines.join('\n');
}

function testcase(r: CaseResult): string {
  const open = `    <testcase classname="petstore.${escapeXml(r.operationId)}" name="${escapeXml(`${r.id}: ${r.title}`)}" time="${seconds(r.durationMs)}"`;
  switch (r.outcome) {
    case 'passed':
      return `${open}/>`;
    case 'skipped':
    case 'notApplicable':
      return `${open}>\n      <skipped message="${escapeXml(r.reason ?? '')}"/>\n    </testcase>`;
    case 'info':
      return `${open}>\n      <system-out>${escapeXml(`information (never a failure): ${r.reason ?? ''}\n${details(r)}`)}</system-out>\n    </testcase>`;
    case 'warned':
      return `${open}>\n      <system-out>${escapeXml(`advice not followed: ${r.reason ?? ''}\n${details(r)}`)}</system-out>\n    </testcase>`;
    case 'failed':
      return `${open}>\n      <failure message="${escapeXml(`${r.cause ? `[${r.consequence ? 'because of' : 'cause'} ${r.cause}] ` : ''}${r.reason ?? ''}`)}" type="${r.level}">${escapeXml(details(r))}</failure>\n    </testcase>`;
  }
}

/** One `<testsuite>`: the whole run, or one shard of a merged run. */
interface Suite {
  name: string;
  cases: CaseResult[];
  ended: Report['ended'];
  startedAt: string;
  durationMs: number;
  /** Properties of this suite only (a shard's own run id). */
  own: [string, string][];
}

/** The suites of a report: one, or one per shard of a merged report (CI lists each shard's cases apart). */
function suitesOf(report: Report): Suite[] {
  if (!report.merged) {
    const { cases, ended, startedAt, durationMs } = report;
    return [{ name: 'petstore-conformance', cases, ended, startedAt, durationMs, own: [['runId', report.runId]] }];
  }
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  return report.merged.shards.map((s) => ({
    name: `petstore-conformance shard ${s.current}/${s.total}`,
    cases: s.caseIds.flatMap((id) => byId.get(id) ?? []),
    ended: s.ended,
    startedAt: s.startedAt,
    durationMs: s.durationMs,
    own: [
      ['shard', `${s.current}/${s.total}`],
      ['runId', s.runId],
    ],
  }));
}

/** The attributes of counts: a run that ended early is one error, a testcase of its own. */
function counts(cases: readonly CaseResult[], errors: number, ms: number): string {
  const n = (outcome: CaseResult['outcome']) => cases.filter((c) => c.outcome === outcome).length;
  return `tests="${cases.length + errors}" failures="${n('failed')}" errors="${errors}" skipped="${n('skipped') + n('notApplicable')}" time="${seconds(ms)}"`;
}

/** The run's facts every suite carries: where, how, what it found across every case. */
function runProperties(report: Report): [string, string][] {
  const s = report.summary;
  return [
    ['baseUrl', report.baseUrl],
    ...(report.proxy ? [['proxy', `${report.proxy.url} (from ${report.proxy.source})`] as [string, string]] : []),
    ['seed', String(report.seed)],
    ['created', String(report.created.count)],
    ['warnings', String(s.warned)],
    ['information', String(s.info)],
    ['notApplicable', String(s.notApplicable)],
    ['strict', String(report.options.strict)],
    ['readOnly', String(report.options.readOnly)],
    ...(report.causes ?? []).map((c): [string, string] => [
      `cause ${c.id}`,
      `[${c.level}] ${c.statement} (cases: ${c.cases.join(', ')}${c.consequences?.length ? `; failing only because of it: ${c.consequences.join(', ')}` : ''})`,
    ]),
    ...report.statusTable.map((e): [string, string] => [
      `status ${e.operationId} ${e.status}`,
      [...e.caseIds, ...(e.generated ? [`${e.generated} generated`] : [])].join(' ') || 'NOT COVERED',
    ]),
  ];
}

function renderSuite(report: Report, suite: Suite): string[] {
  const ended = suite.ended;
  const props: [string, string][] = [
    ...(ended ? [['ended', endedLine(ended)] as [string, string]] : []),
    ...suite.own,
    ...runProperties(report),
  ];
  return [
    `  <testsuite name="${escapeXml(suite.name)}" timestamp="${escapeXml(suite.startedAt.replace(/\.\d+Z$/, ''))}" ${counts(suite.cases, ended ? 1 : 0, suite.durationMs)}>`,
    '    <properties>',
    ...props.map(([n, v]) => `      <property name="${escapeXml(n)}" value="${escapeXml(v)}"/>`),
    '    </properties>',
    // The run's end comes first: CI lists it before the cases it cut short.
    ...(ended
      ? [
          `    <testcase classname="petstore.run" name="run.ended: the run ended early" time="0">\n      <error message="${escapeXml(ended.reason)}" type="${escapeXml(ended.code)}">${escapeXml(endedLine(ended))}</error>\n    </testcase>`,
        ]
      : []),
    ...suite.cases.map(testcase),
    `    <system-out>${escapeXml([...(report.ended ? [endedLine(report.ended), ''] : []), ...causeLines(report), ...(report.causes?.length ? [''] : []), ...statusTableLines(report), '', ...footerLines(report), summaryLine(report)].join('\n'))}</system-out>`,
    '  </testsuite>',
  ];
}

/** Renders the report as JUnit XML: one test suite, or one per shard of a merged report. */
export function renderJunit(report: Report): string {
  const suites = suitesOf(report);
  const errors = suites.filter((s) => s.ended).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-conformance" ${counts(report.cases, errors, report.durationMs)}>`,
    ...suites.flatMap((suite) => renderSuite(report, suite)),
    '</testsuites>',
  ];
  return `${out.join('\n')}\n`;
}
