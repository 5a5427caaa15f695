/**
 * `--list`: every selected case id and generated check id with its level,
 * operation and the contract section it checks, as aligned text or as JSON.
 */
import type { Selection } from '../run/select.ts';
import type { Case } from '../types.ts';
import { plural } from '../words.ts';

/** One listed case or generated check. */
interface ListedCase {
  id: string;
  level: Case['level'];
  operationId: string;
  section: string;
  /** What an advice case rests on (an RFC section, or the contract's text). */
  basis?: string;
  title: string;
  /** True for a generated check: it runs only with `--generate N`. */
  generated?: true;
}

/** The selection as plain records: the fixed cases, then the generated checks. */
export function listCases(selection: Pick<Selection, 'cases' | 'generated'>): ListedCase[] {
  const record = (c: Omit<ListedCase, 'generated'>): ListedCase => ({
    id: c.id,
    level: c.level,
    operationId: c.operationId,
    section: c.section,
    ...(c.basis === undefined ? {} : { basis: c.basis }),
    title: c.title,
  });
  return [
    ...selection.cases.map(record),
    ...selection.generated.map((c) => ({ ...record(c), generated: true as const })),
  ];
}

/** The listing as text (`json` false) or JSON. */
export function renderList(selection: Pick<Selection, 'cases' | 'generated'>, json: boolean): string {
  const listed = listCases(selection);
  if (json) return `${JSON.stringify(listed, null, 2)}\n`;
  const rows = listed.map((c) => [
    c.id,
    c.level,
    c.operationId,
    c.basis ? `${c.section} (basis: ${c.basis})` : c.section,
  ]);
  const header = ['id', 'level', 'operation', 'section'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  const counts = [plural(selection.cases.length, 'case')];
  if (selection.generated.length > 0)
    counts.push(`${plural(selection.generated.length, 'generated check')} (run with --generate N)`);
  return `${[line(header), ...rows.map(line)].join('\n')}\n${counts.join(', ')}\n`;
}
