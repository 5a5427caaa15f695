/** The Markdown the bench's tables are made of: tables, numbers, ratios. */

/** A Markdown table, first column left-aligned, the others right-aligned unless `left` names them. */
export function table(header: string[], rows: string[][], left: number[] = [0]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const cell = (c: string, i: number) => (left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (left.includes(i) ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number with thousands separators, or `n/a`. */
export const num = (value: number | null | undefined, digits = 0): string =>
  typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

/** A ratio as `0.85x`, or `n/a`. */
export const ratio = (value: number | null | undefined): string =>
  typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a';

/** A section's title and that this run did not measure it. */
export function notMeasured(title: string): string {
  return `${title}\n\nNot measured in this run.`;
}
