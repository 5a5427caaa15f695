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

/** Renders the report as JUnit XML. */
export function renderJunit(report: Report): string {
  const s = report.summary;
  // A run that ended early is one error, a testcase of its own, so that CI shows it red whatever was judged before.
  const errors = report.ended ? 1 : 0;
  const attrs = `tests="${s.total + errors}" failures="${s.failed}" errors="${errors}" skipped="${s.skipped + s.notApplicable}" time="${seconds(report.durationMs)}"`;
  const props: [string, string][] = [
    ...(report.ended ? [['ended', endedLine(report.ended)] as [string, string]] : []),
    ['baseUrl', report.baseUrl],
    ...(report.proxy ? [['proxy', `${report.proxy.url} (from ${report.proxy.source})`] as [string, string]] : []),
    ['runId', report.runId],
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
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-conformance" ${attrs}>`,
    `  <testsuite name="petstore-conformance" timestamp="${escapeXml(report.startedAt.replace(/\.\d+Z$/, ''))}" ${attrs}>`,
    '    <properties>',
    ...props.map(([n, v]) => `      <property name="${escapeXml(n)}" value="${escapeXml(v)}"/>`),
    '    </properties>',
    // The run's end comes first: CI lists it before the cases it cut short.
    ...(report.ended
      ? [
          `    <testcase classname="petstore.run" name="run.ended: the run ended early" time="0">\n      <error message="${escapeXml(report.ended.reason)}" type="${escapeXml(report.ended.code)}">${escapeXml(endedLine(report.ended))}</error>\n    </testcase>`,
        ]
      : []),
    ...report.cases.map(testcase),
    `    <system-out>${escapeXml([...(report.ended ? [endedLine(report.ended), ''] : []), ...causeLines(report), ...(report.causes?.length ? [''] : []), ...statusTableLines(report), '', ...footerLines(report), summaryLine(report)].join('\n'))}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${out.join('\n')}\n`;
}
