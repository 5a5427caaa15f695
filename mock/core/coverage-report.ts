/**
 * What a team does with coverage: read it as a table in a terminal or as
 * Markdown in a CI summary, and, if it wants a gate, fail a test run when a
 * listed response was never exercised or when the client sent a request the
 * contract refuses that no test forced.
 */

import type { CoverageReport, CoverageSource } from './coverage.ts';
import { PetstoreMockError } from './errors.ts';

/** Anything that gives a coverage report: every adapter's {@link PetstoreMock}, or a report already read. */
export type CoverageHolder = { coverage(): CoverageReport } | CoverageReport;

function reportOf(holder: CoverageHolder): CoverageReport {
  return 'coverage' in holder && typeof holder.coverage === 'function' ? holder.coverage() : (holder as CoverageReport);
}

const SOURCE_NAMES: Record<CoverageSource, string> = {
  client: 'client',
  scenario: 'scenario',
  prefer: 'Prefer',
  chaos: 'chaos',
  rateLimit: 'rate limit',
};

function sources(bySource: Record<CoverageSource, number>): string {
  const parts = (Object.keys(SOURCE_NAMES) as CoverageSource[])
    .filter((s) => bySource[s] > 0)
    .map((s) => `${SOURCE_NAMES[s]} ${bySource[s]}`);
  return parts.join(', ');
}

function table(head: string[], rows: string[][], markdown: boolean): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    markdown
      ? `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`
      : cells
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd();
  return [
    line(head),
    markdown ? `|${head.map(() => '---').join('|')}|` : widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ];
}

/** The coverage as text: `table` for a terminal (the default), `markdown` for a CI summary or a pull request. */
export function formatCoverage(holder: CoverageHolder, format: 'table' | 'markdown' = 'table'): string {
  const r = reportOf(holder);
  const md = format === 'markdown';
  const title = (text: string) => (md ? `### ${text}` : text);
  const received = r.responses.filter((x) => x.documented || x.count > 0 || x.abandoned > 0);
  const lines = [
    md ? '## Petstore contract coverage' : 'Petstore contract coverage',
    `${r.requests} API requests since ${r.since}; ${r.neverReceived.length === 0 ? 'every documented response received' : `never received: ${r.neverReceived.join(', ')}`}.`,
    '',
    title('Responses'),
    ...table(
      ['response', 'documented', 'received', 'by'],
      received.map((x) => [
        x.id,
        x.documented ? 'yes' : 'no',
        String(x.count),
        [sources(x.bySource), ...(x.abandoned > 0 ? [`abandoned by the client ${x.abandoned}`] : [])]
          .filter(Boolean)
          .join(', '),
      ]),
      md,
    ),
    '',
    title('Request variations'),
    ...table(
      ['variation', 'sent'],
      r.variations.map((v) => [v.id, String(v.count)]),
      md,
    ),
  ];
  for (const d of r.deprecated)
    lines.push(
      '',
      `${d.operationId}: ${d.calls} call(s) to a ${d.removed ? 'REMOVED' : 'deprecated'} operation (sunset ${d.sunset}; use ${d.replacement}).`,
    );
  lines.push('', title('Invalid requests the client sent (not forced)'));
  if (r.invalidRequests.length === 0) lines.push('none');
  else
    lines.push(
      ...table(
        ['kind', 'times', 'example'],
        r.invalidRequests.map((k) => [k.kind, String(k.count), `${k.example.request} -> ${k.example.status}`]),
        md,
      ),
    );
  if (r.unknownRoutes > 0) lines.push('', `${r.unknownRoutes} request(s) to no operation of the interface.`);
  return `${lines.join('\n')}\n`;
}

/** What {@link expectCoverage} requires. */
export interface CoverageRequirement {
  /** Responses that must have been received at least once: `getPet 404`, `createPet 400`, `listPets 503`. */
  responses?: readonly string[];
  /** Variations that must have been sent at least once: `listPets limit=100`, `listPets empty listing`. */
  variations?: readonly string[];
}

/** Throws (failing the test) naming every listed response or variation the client never exercised. */
export function expectCoverage(holder: CoverageHolder, required: CoverageRequirement): void {
  const r = reportOf(holder);
  const counts = new Map(r.responses.map((x) => [x.id, x.count]));
  const variations = new Map(r.variations.map((v) => [v.id, v.count]));
  const unknown = [
    ...(required.responses ?? []).filter((id) => !counts.has(id) && !/^\w+ (\d{3}|fault=\w+)$/.test(id)),
    ...(required.variations ?? []).filter((id) => !variations.has(id)),
  ];
  if (unknown.length > 0)
    throw new TypeError(
      `expectCoverage: unknown ${unknown.join(', ')} (responses are 'operationId status', like 'getPet 404'; variations: ${[...variations.keys()].join(', ')})`,
    );
  const missing = [
    ...(required.responses ?? []).filter((id) => (counts.get(id) ?? 0) === 0),
    ...(required.variations ?? []).filter((id) => (variations.get(id) ?? 0) === 0),
  ];
  if (missing.length > 0) {
    throw new PetstoreMockError(
      'PETSTORE_MOCK_COVERAGE_NOT_MET',
      `the client's tests never exercised ${missing.join(', ')} (${r.requests} API requests since ${r.since})`,
    );
  }
}

/** Throws (failing the test) when the client sent a request the contract refuses that no test forced, naming each kind with an example. */
export function expectNoInvalidRequests(holder: CoverageHolder): void {
  const r = reportOf(holder);
  if (r.invalidRequests.length === 0) return;
  const kinds = r.invalidRequests.map(
    (k) => `${k.kind} (${k.count}x; e.g. ${k.example.request} answered ${k.example.status}: ${k.example.message})`,
  );
  throw new PetstoreMockError(
    'PETSTORE_MOCK_COVERAGE_NOT_MET',
    `the client sent requests the contract refuses:\n- ${kinds.join('\n- ')}`,
  );
}
