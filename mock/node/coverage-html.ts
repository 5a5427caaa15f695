/**
 * The coverage as one self-contained HTML page (no script, no outside
 * resource), for `petstore-mock --coverage-html FILE`: what a client's tests
 * exercised of the contract, what they never did, and what they sent that the
 * contract refuses. Every value is escaped.
 */
import type { CoverageReport, CoverageSource } from '../core/coverage.ts';

const esc = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SOURCES: [CoverageSource, string][] = [
  ['client', 'client'],
  ['scenario', 'scenario'],
  ['prefer', 'Prefer'],
  ['chaos', 'chaos'],
  ['rateLimit', 'rate limit'],
];

/** The page. */
export function renderCoverageHtml(r: CoverageReport): string {
  const documented = r.responses.filter((x) => x.documented);
  const covered = documented.filter((x) => x.count > 0).length;
  const rows = r.responses
    .filter((x) => x.documented || x.count > 0)
    .map((x) => {
      const by = SOURCES.filter(([s]) => x.bySource[s] > 0)
        .map(([s, name]) => `${name} ${x.bySource[s]}`)
        .join(', ');
      const cls = x.count > 0 ? 'hit' : x.documented ? 'miss' : '';
      return `<tr class="${cls}"><td>${esc(x.id)}</td><td>${x.documented ? 'documented' : 'not documented'}</td><td class="n">${x.count}</td><td>${esc(by)}</td></tr>`;
    })
    .join('\n');
  const variations = r.variations
    .map((v) => `<tr class="${v.count > 0 ? 'hit' : 'miss'}"><td>${esc(v.id)}</td><td class="n">${v.count}</td></tr>`)
    .join('\n');
  const invalid =
    r.invalidRequests.length === 0
      ? '<p class="good">None: every request the client sent itself was one the contract takes.</p>'
      : `<table><tr><th>kind</th><th>times</th><th>example</th></tr>${r.invalidRequests
          .map(
            (k) =>
              `<tr class="miss"><td>${esc(k.kind)}</td><td class="n">${k.count}</td><td><code>${esc(k.example.request)}</code> → ${k.example.status}: ${esc(k.example.message)}</td></tr>`,
          )
          .join('\n')}</table>`;
  const deprecated = r.deprecated
    .map(
      (d) =>
        `<p class="${d.calls > 0 ? 'warn' : 'good'}"><strong>${esc(d.operationId)}</strong> ${d.removed ? 'is removed' : 'is deprecated'} (sunset ${esc(d.sunset)}; use ${esc(d.replacement)}): ${d.calls} call(s).</p>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Petstore contract coverage</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.5rem;margin-bottom:.2rem}.lead{color:#57606a;margin-top:0}
.big{font-size:1.2rem}.miss td:first-child{color:#b42318;font-weight:600}.hit td:first-child{color:#1a7f37}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}td,th{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left}
.n{text-align:right;font-variant-numeric:tabular-nums}.warn{background:#fff8c5;padding:.5rem}.good{color:#1a7f37}
code{font-size:.9em}
</style></head><body>
<h1>Petstore contract coverage</h1>
<p class="lead">${r.requests} API requests since ${esc(r.since)}.</p>
<p class="big">${covered} of ${documented.length} documented responses received.${r.neverReceived.length ? ` Never received: <strong>${esc(r.neverReceived.join(', '))}</strong>.` : ''}</p>
${deprecated}
<h2>Invalid requests the client sent (not forced by a test)</h2>
${invalid}
<h2>Responses</h2>
<table><tr><th>response</th><th>kind</th><th>received</th><th>by</th></tr>
${rows}
</table>
<h2>Request variations</h2>
<table><tr><th>variation</th><th>sent</th></tr>
${variations}
</table>
</body></html>
`;
}
