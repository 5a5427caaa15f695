/** The HTML report's whole style sheet, inlined so the file needs nothing beside it. */
export const HTML_STYLE = `
:root { --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --skip: #6e7781; --ink: #1f2328; --muted: #59636e;
  --line: #d1d9e0; --bg: #f6f8fa; --code: #eff2f5; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
header { background: #fff; border: 1px solid var(--line); border-top: 6px solid var(--ok); border-radius: 8px; padding: 20px 24px; }
header.bad { border-top-color: var(--bad); }
h1 { margin: 0; font-size: 22px; display: flex; align-items: center; gap: 12px; }
.badge { font-size: 13px; letter-spacing: .06em; color: #fff; background: var(--ok); border-radius: 999px; padding: 2px 12px; }
header.bad .badge { background: var(--bad); }
.target { margin: 6px 0 0; font-family: ui-monospace, monospace; font-size: 15px; }
.facts { margin: 2px 0 14px; color: var(--muted); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { min-width: 104px; border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; background: var(--bg); }
.card b { display: block; font-size: 26px; line-height: 1.1; }
.card span { color: var(--muted); text-transform: uppercase; font-size: 11px; letter-spacing: .08em; }
.card.passed b { color: var(--ok); } .card.failed b { color: var(--bad); } .card.warned b { color: var(--warn); }
.card.skipped b, .card.not-applicable b, .card.info b { color: var(--skip); }
.ended { margin: 8px 0 12px; padding: 8px 12px; border-left: 4px solid var(--bad); background: #fff; }
.summary { font-weight: 600; margin: 14px 0 4px; }
.notes { margin: 0; padding-left: 18px; color: var(--muted); }
section { margin-top: 22px; }
h2 { font-size: 17px; margin: 0 0 10px; } h2 small, h1 small { color: var(--muted); font-weight: 400; font-size: 13px; margin-left: 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
th, td { border-bottom: 1px solid var(--line); padding: 8px 10px; text-align: left; vertical-align: top; }
table.matrix { table-layout: fixed; } .matrix thead th:first-child { width: 230px; }
.matrix th small { display: block; color: var(--muted); font-weight: 400; font-family: ui-monospace, monospace; font-size: 12px; }
.matrix thead th { background: var(--bg); font-size: 13px; }
.matrix td { text-align: center; min-width: 88px; }
.matrix td small { display: block; color: var(--muted); }
.matrix td.hit { background: #dafbe1; color: var(--ok); }
.matrix td.miss { background: #ffebe9; color: var(--bad); }
.matrix td.warn { background: #fff8c5; color: #7d4e00; }
.matrix td.na { color: #afb8c1; }
.matrix small.bad { color: var(--bad); }
.case { background: #fff; border: 1px solid var(--line); border-left: 5px solid var(--bad); border-radius: 8px; padding: 12px 16px; margin-bottom: 14px; }
.case.warned { border-left-color: var(--warn); }
.case h3 { margin: 0; font-size: 15px; display: flex; align-items: center; gap: 8px; }
.title { margin: 4px 0 8px; } .title small { color: var(--muted); margin-left: 6px; }
.tag { font-size: 11px; font-weight: 700; letter-spacing: .06em; color: #fff; border-radius: 4px; padding: 1px 6px; }
.tag.passed { background: var(--ok); } .tag.failed { background: var(--bad); } .tag.warned { background: var(--warn); }
.tag.skipped, .tag.notApplicable, .tag.info { background: var(--skip); }
.level { font-size: 11px; color: var(--warn); border: 1px solid var(--warn); border-radius: 4px; padding: 0 5px; }
.checks { list-style: none; padding: 0; margin: 0 0 8px; }
.checks li { padding: 1px 0; } .checks li.ok span { color: var(--ok); } .checks li.ko span { color: var(--bad); font-weight: 700; }
.checks li.ok { color: var(--muted); } .checks ul { margin: 2px 0 4px; color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; }
.held { margin: 0 0 6px; color: var(--muted); } .held summary { cursor: pointer; font-size: 13px; }
.held .checks { margin: 4px 0 0 16px; }
.index { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 12px; }
.index a { font-family: ui-monospace, monospace; font-size: 12px; color: var(--bad); background: #fff; border: 1px solid #ffcecb;
  border-radius: 999px; padding: 1px 10px; text-decoration: none; }
.index a:hover { background: #ffebe9; }
.exchange { border-top: 1px dashed var(--line); padding-top: 8px; margin-top: 8px; }
pre { margin: 4px 0; padding: 8px 10px; background: var(--code); border-radius: 6px; white-space: pre-wrap; word-break: break-all; }
pre.curl { background: #24292f; color: #f0f3f6; }
.status { margin: 6px 0 0; color: var(--muted); } .status b { color: var(--ink); }
.error { color: var(--bad); font-family: ui-monospace, monospace; font-size: 12.5px; margin: 4px 0; }
.none { color: var(--muted); background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0; }
details summary { cursor: pointer; list-style: none; } details summary h2 { display: inline; }
details summary::before { content: "▸ "; color: var(--muted); } details[open] summary::before { content: "▾ "; }
table.all { margin-top: 10px; } table.all td small { color: var(--muted); } .num { text-align: right; white-space: nowrap; color: var(--muted); }
ol.causes { padding-left: 0; list-style: none; } li.cause { background: var(--card, #fff); border: 1px solid #d0d7de; border-left: 4px solid #cf222e; border-radius: 6px; padding: 10px 14px; margin: 8px 0; }
p.consequence { margin: 4px 0; color: var(--muted); font-size: 13px; }
li.cause.advice { border-left-color: #9a6700; } li.cause .level { font-size: 12px; color: var(--muted); margin-right: 4px; } li.cause p.cases { margin: 6px 0; color: var(--muted); font-size: 13px; }
footer { margin: 28px 0 8px; color: var(--muted); font-size: 12px; text-align: center; }
`;
