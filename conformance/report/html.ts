/**
 * The HTML reporter: one self-contained page for QA (styles inline, no script,
 * no external asset), readable from disk: the verdict and counts, the status
 * matrix (operation x documented status), each failure with its checks, curl
 * line and body excerpt, the advice not followed, and every case.
 */
import type { CaseResult, CheckResult, Exchange, Outcome, Report, StatusTableRow } from '../types.ts';
import { excerpt } from '../words.ts';
import { escapeControls } from './controls.ts';
import { endedLine, exchangesInOrder, footerLines, renderCurl, summaryLine } from './format.ts';
import { HTML_STYLE } from './html-style.ts';
import { sectionLinks } from './sections.ts';

/** Escapes text for HTML content and attribute values; control bytes are shown as `\xNN`. */
export function escapeHtml(text: string): string {
  return escapeControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const e = escapeHtml;

/** Text as HTML, with its `code` spans (the Markdown backticks of messages and statements) set as code. */
function rich(text: string): string {
  return e(text).replace(/`([^`\n]+)`/g, '<code>$1</code>');
}

/** A cited section, each part a link to where it is written (the contract page's heading, the RFC's section). */
function sectionHtml(section: string): string {
  return sectionLinks(section)
    .map((link) => (link.url ? `<a href="${e(link.url)}">${e(link.name)}</a>` : e(link.name)))
    .join('; ');
}

/** The failed cases in the order of their causes (a cause's cases, then those failing only because of it), then the rest. */
function failuresByCause(report: Report, failed: readonly CaseResult[]): CaseResult[] {
  const byId = new Map(failed.map((r) => [r.id, r]));
  const ordered: CaseResult[] = [];
  for (const cause of report.causes ?? [])
    for (const id of [...cause.cases, ...(cause.consequences ?? [])]) {
      const r = byId.get(id);
      if (r) ordered.push(r), byId.delete(id);
    }
  return [...ordered, ...byId.values()];
}

const LABEL: Record<Outcome, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  warned: 'WARN',
  info: 'INFO',
  skipped: 'SKIP',
  notApplicable: 'N/A',
};

function verdict(report: Report): string {
  const s = report.summary;
  const state = report.ok ? 'ok' : 'bad';
  const cards = (
    [
      ['passed', s.passed],
      ['failed', s.failed],
      ['warned', s.warned],
      ['info', s.info],
      ['skipped', s.skipped],
      ['not applicable', s.notApplicable],
      ['total', s.total],
    ] as const
  )
    .map(([name, n]) => `<div class="card ${name.replace(' ', '-')}"><b>${n}</b><span>${name}</span></div>`)
    .join('');
  const facts = [
    `run <code>${e(report.runId)}</code>`,
    e(new Date(report.startedAt).toUTCString()),
    `${(report.durationMs / 1000).toFixed(1)} s`,
    `timeout ${report.options.timeoutMs} ms`,
    ...(report.options.strict ? ['strict'] : []),
    ...(report.options.readOnly ? ['read-only'] : []),
  ];
  return `<header class="${state}">
<h1>Petstore conformance <span class="badge">${report.ok ? 'PASSED' : report.ended ? 'ENDED EARLY' : report.summary.failed > 0 ? 'FAILED' : 'INCOMPLETE'}</span></h1>
${report.ended ? `<p class="ended"><strong>${e(endedLine(report.ended))}</strong></p>\n` : ''}<p class="target">${e(report.baseUrl)}${report.proxy ? ` through the proxy ${e(report.proxy.url)} (from ${e(report.proxy.source)})` : ''}</p>
<p class="facts">${facts.join(' · ')}</p>
<div class="cards">${cards}</div>
<p class="summary">${e(summaryLine(report))}</p>
<ul class="notes">${footerLines(report)
    .map((l) => `<li>${e(l)}</li>`)
    .join('')}</ul>
</header>`;
}

/**
 * One cell of the status matrix, coloured by what its cases' outcomes were, not only by whether some case got the
 * status: green when every case that got it passed, amber when one warned, red when one failed or none got it.
 */
function statusCell(entry: StatusTableRow | undefined, outcomes: ReadonlyMap<string, Outcome>): string {
  if (!entry) return '<td class="na">—</td>';
  // Recorded traffic: how many entries got the status (their verdicts are the causes' and the entries' own).
  if (entry.recorded !== undefined)
    return entry.recorded === 0
      ? '<td class="miss"><b>not covered</b></td>'
      : `<td class="hit"><b>${entry.recorded} recorded entr${entry.recorded === 1 ? 'y' : 'ies'}</b></td>`;
  const failed = entry.caseIds.filter((id) => outcomes.get(id) === 'failed').length;
  const warned = entry.caseIds.filter((id) => outcomes.get(id) === 'warned').length;
  const kind = entry.caseIds.length === 0 || failed > 0 ? 'miss' : warned > 0 ? 'warn' : 'hit';
  const lines = [
    entry.caseIds.length > 0
      ? `<b>${entry.caseIds.length} case${entry.caseIds.length === 1 ? '' : 's'}</b>${failed > 0 ? ` <small class="bad">${failed} failed</small>` : ''}${warned > 0 ? ` <small>${warned} warned</small>` : ''}`
      : '<b>not covered</b>',
    ...(entry.answeredOtherwise.length > 0
      ? [`<small>${entry.answeredOtherwise.length} answered otherwise, as allowed</small>`]
      : []),
    ...(entry.declaredOnly.length > 0
      ? [`<small class="bad">${entry.declaredOnly.length} expected, failed</small>`]
      : []),
    ...(entry.notApplicable.length > 0 ? [`<small>${entry.notApplicable.length} not applicable</small>`] : []),
  ];
  const title = [
    ...entry.caseIds,
    ...entry.answeredOtherwise.map((id) => `${id} (answered otherwise)`),
    ...entry.notApplicable.map((id) => `${id} (not applicable)`),
  ].join('\n');
  return `<td class="${kind}" title="${e(title)}">${lines.join('<br>')}</td>`;
}

function statusMatrix(report: Report): string {
  const statuses = [...new Set(report.statusTable.map((c) => c.status))].sort((a, b) => a - b);
  const ops = [...new Map(report.statusTable.map((c) => [c.operationId, c])).values()];
  const outcomes = new Map(report.cases.map((c) => [c.id, c.outcome]));
  const rows = ops.map((op) => {
    const cells = statuses.map((s) =>
      statusCell(
        report.statusTable.find((c) => c.operationId === op.operationId && c.status === s),
        outcomes,
      ),
    );
    return `<tr><th scope="row">${e(op.operationId)}<small>${e(`${op.method} ${op.path}`)}</small></th>${cells.join('')}</tr>`;
  });
  return `<section><h2>Documented statuses <small>operation × documented status: the cases that got that answer</small></h2>
<table class="matrix"><thead><tr><th>operation</th>${statuses.map((s) => `<th>${s}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`;
}

function exchangeBlock(ex: Exchange): string {
  const res = ex.response;
  const status = res
    ? `<p class="status"><b>${res.status}</b> · ${e(res.headers['content-type'] ?? 'no Content-Type')} · ${res.bytes} bytes · ${Math.round(ex.durationMs)} ms</p>
<pre class="body">${e(res.body === '' ? '(empty body)' : excerpt(res.body, 600))}</pre>`
    : '';
  const error = ex.error ? `<p class="error">${e(`${ex.error.code}: ${ex.error.message}`)}</p>` : '';
  return `<div class="exchange"><pre class="curl">$ ${e(renderCurl(ex.request))}</pre>${status}${error}</div>`;
}

function checkItem(c: CheckResult): string {
  const details = c.details?.length ? `<ul>${c.details.map((d) => `<li>${rich(d)}</li>`).join('')}</ul>` : '';
  const [cls, sign] = c.info ? ['info', 'i'] : c.ok ? ['ok', '✓'] : ['ko', '✗'];
  return `<li class="${cls}"><span>${sign}</span> <b>${e(c.name)}</b>: ${c.variation ? `${e(c.variation)}: ` : ''}${rich(c.message)}${details}</li>`;
}

function caseBlock(r: CaseResult): string {
  const failed = r.checks.filter((c) => !c.ok);
  const passed = r.checks.filter((c) => c.ok);
  const held =
    passed.length === 0
      ? ''
      : `<details class="held"><summary>${passed.length} check${passed.length === 1 ? '' : 's'} held</summary><ul class="checks">${passed.map(checkItem).join('')}</ul></details>`;
  return `<article class="case ${r.outcome}" id="${e(r.id)}">
<h3><span class="tag ${r.outcome}">${LABEL[r.outcome]}</span> <code>${e(r.id)}</code> ${r.level === 'required' ? '' : `<span class="level">${r.level === 'info' ? 'information' : r.level}</span>`}</h3>
<p class="title">${rich(r.title)} <small>${sectionHtml(r.section)}</small></p>${r.consequence ? `\n<p class="consequence">${rich(r.consequence)}</p>` : r.cause ? `\n<p class="consequence">cause ${e(r.cause)}</p>` : ''}
<ul class="checks">${failed.map(checkItem).join('')}</ul>${held}
${exchangesInOrder(r).map(exchangeBlock).join('\n')}
</article>`;
}

function caseSection(title: string, cases: CaseResult[], empty: string): string {
  if (cases.length === 0)
    return `<section><h2>${e(title)} <small>0</small></h2><p class="none">${e(empty)}</p></section>`;
  const index = cases.map((r) => `<a href="#${encodeURIComponent(r.id)}">${e(r.id)}</a>`).join('');
  return `<section><h2>${e(title)} <small>${cases.length}</small></h2><nav class="index">${index}</nav>
${cases.map(caseBlock).join('\n')}</section>`;
}

function allCasesTable(report: Report): string {
  const rows = report.cases.map(
    (r) =>
      `<tr class="${r.outcome}"><td><span class="tag ${r.outcome}">${LABEL[r.outcome]}</span></td><td><code>${e(r.id)}</code></td><td>${rich(r.title)}${r.reason && r.outcome !== 'passed' ? `<br><small>${rich(r.reason)}</small>` : ''}</td><td class="num">${Math.round(r.durationMs)} ms</td></tr>`,
  );
  return `<section><details><summary><h2>Every case <small>${report.cases.length}</small></h2></summary>
<table class="all"><tbody>${rows.join('\n')}</tbody></table></details></section>`;
}

function caseLinks(ids: readonly string[]): string {
  return ids.map((id) => `<a href="#${e(id)}">${e(id)}</a>`).join(', ');
}

/** The causes, most important first, each with the cases it explains and one curl line. */
function causeSection(report: Report): string {
  const causes = report.causes ?? [];
  if (causes.length === 0) return '';
  const items = causes
    .map(
      (
        c,
      ) => `<li class="cause ${c.level}"><b>${e(c.id)}</b> <span class="level">${e(c.level)}</span> ${rich(c.statement)}
<p class="cases">${c.cases.length === 1 ? 'case' : `${c.cases.length} cases`}: ${caseLinks(c.cases)} · contract: ${sectionHtml(c.section)}</p>
${c.consequences?.length ? `<p class="cases">failing only because of it: ${caseLinks(c.consequences)}</p>` : ''}
${c.needs ? `<p class="needs">needs: ${e(c.needs.state)}</p>${c.needs.setup.map((r) => `<pre class="curl">$ ${e(renderCurl(r))}</pre>`).join('')}` : ''}${c.request ? `<pre class="curl">$ ${e(renderCurl(c.request))}</pre>` : ''}</li>`,
    )
    .join('\n');
  return `<section><h2>Causes <small>${causes.length}, most important first</small></h2><ol class="causes">${items}</ol></section>`;
}

/** Renders the report as one self-contained HTML page. */
export function renderHtml(report: Report): string {
  const failed = report.cases.filter((r) => r.outcome === 'failed');
  const warned = report.cases.filter((r) => r.outcome === 'warned');
  const info = report.cases.filter((r) => r.outcome === 'info');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Petstore conformance: ${report.ok ? 'passed' : 'failed'} · ${e(report.baseUrl)}</title>
<style>${HTML_STYLE}</style></head>
<body><main>
${verdict(report)}
${causeSection(report)}
${statusMatrix(report)}
${caseSection('Failures, by cause', failuresByCause(report, failed), 'No required case failed.')}
${caseSection('Advice not followed', warned, 'Every advice case was followed.')}
${info.length === 0 ? '' : caseSection('Information (choices the interface leaves open; never a failure)', info, '')}
${allCasesTable(report)}
<footer>petstore-conformance · the API key is never shown in this report</footer>
</main></body></html>
`;
}
