/**
 * `--list`: every case id with its level, operation and the contract section
 * it checks, as aligned text or as JSON.
 */
import type { Case } from '../types.ts';

/** One listed case. */
export interface ListedCase {
  id: string;
  level: Case['level'];
  operationId: string;
  section: string;
  title: string;
}

/** The cases as plain records. */
export function listCases(cases: readonly Case[]): ListedCase[] {
  return cases.map((c) => ({
    id: c.id,
    level: c.level,
    operationId: c.operationId,
    section: c.section,
    title: c.title,
  }));
}

/** The listing as text (`json` false) or JSON. */
export function renderList(cases: readonly Case[], json: boolean): string {
  const listed = listCases(cases);
  if (json) return `${JSON.stringify(listed, null, 2)}\n`;
  const rows = listed.map((c) => [c.id, c.level, c.operationId, c.section]);
  const header = ['id', 'level', 'operation', 'section'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n${listed.length} cases\n`;
}
