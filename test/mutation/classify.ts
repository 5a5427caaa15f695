/**
 * What a mutation run's results say: the raw score, the score over the mutants that are not equivalent, and every
 * survivor either matched to its reason in the checked-in list (equivalents.ts) or left to be killed. Pure: the
 * run's results and the mutated files' text in, the summary out.
 */
import type { Equivalent } from './equivalents.ts';

/** The part of a Stryker mutant result this reads (Stryker's MutantResult has it, and the JSON report's mutants). */
export interface MutantOutcome {
  id: string;
  /** Relative to the repository's root, with `/`. */
  fileName: string;
  mutatorName: string;
  replacement: string;
  status: string;
  /** Lines and columns from 1, as Stryker gives them. */
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** A survivor with what it changed, as the report shows it. */
export interface Survivor {
  id: string;
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  status: string;
  /** Its entry in the list of equivalents, when it has one. */
  reason?: string;
}

/** The scores and the survivors of one run. */
export interface MutationSummary {
  total: number;
  killed: number;
  survived: number;
  /** Survivors (or mutants no test reached) the list of equivalents explains. */
  equivalent: number;
  /** Stryker's score: killed and timed out over every valid mutant, in percent. */
  raw: number;
  /** Killed and timed out over the mutants that are not equivalent, in percent. */
  adjusted: number;
  /** Survivors with no entry: each is a gap in the suite until a case kills it or it is shown equivalent. */
  unexplained: Survivor[];
  explained: Survivor[];
  /** Entries of the list that matched no survivor: stale, to remove or correct. */
  unused: Equivalent[];
}

const KILLED = new Set(['Killed', 'Timeout']);
const SURVIVED = new Set(['Survived', 'NoCoverage']);

/** The mutated source text: from `start` to `end` of `source` (lines and columns from 1), whitespace folded. */
export function originalText(source: string, location: MutantOutcome['location']): string {
  const lines = source.split('\n');
  const { start, end } = location;
  const picked =
    start.line === end.line
      ? lines[start.line - 1]!.slice(start.column - 1, end.column - 1)
      : [
          lines[start.line - 1]!.slice(start.column - 1),
          ...lines.slice(start.line, end.line - 1),
          lines[end.line - 1]!.slice(0, end.column - 1),
        ].join('\n');
  return fold(picked);
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The entry explaining `s`: same file and mutator, its code found in the mutated text, its replacement if given. */
export function entryFor(s: Survivor, equivalents: readonly Equivalent[]): Equivalent | undefined {
  return equivalents.find(
    (e) =>
      e.file === s.file &&
      (e.mutator === undefined || e.mutator === s.mutator) &&
      s.original.includes(fold(e.code)) &&
      (e.replacement === undefined || fold(e.replacement) === fold(s.replacement)),
  );
}

/** Sorts a run's mutants into scores and classified survivors. */
export function classify(
  results: readonly MutantOutcome[],
  sourceOf: (file: string) => string,
  equivalents: readonly Equivalent[],
): MutationSummary {
  const valid = results.filter((r) => KILLED.has(r.status) || SURVIVED.has(r.status));
  const killed = valid.filter((r) => KILLED.has(r.status)).length;
  const used = new Set<Equivalent>();
  const explained: Survivor[] = [];
  const unexplained: Survivor[] = [];
  for (const r of valid.filter((m) => SURVIVED.has(m.status))) {
    const s: Survivor = {
      id: r.id,
      file: r.fileName,
      line: r.location.start.line,
      mutator: r.mutatorName,
      original: originalText(sourceOf(r.fileName), r.location),
      replacement: fold(r.replacement),
      status: r.status,
    };
    const entry = entryFor(s, equivalents);
    if (entry) {
      used.add(entry);
      explained.push({ ...s, reason: `${entry.kind}: ${entry.reason}` });
    } else unexplained.push(s);
  }
  const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);
  return {
    total: valid.length,
    killed,
    survived: valid.length - killed,
    equivalent: explained.length,
    raw: percent(killed, valid.length),
    adjusted: percent(killed, valid.length - explained.length),
    unexplained,
    explained,
    unused: equivalents.filter((e) => !used.has(e)),
  };
}

/** The survivors report (Markdown): the scores, then each unexplained survivor, then the explained ones. */
export function survivorsReport(summary: MutationSummary, heading: string): string {
  const row = (s: Survivor) =>
    `| ${s.file}:${s.line} | ${s.mutator} | \`${cell(s.original)}\` | \`${cell(s.replacement)}\` |${s.reason ? ` ${cell(s.reason)} |` : ''}`;
  return [
    `# ${heading}`,
    '',
    scoreLine(summary),
    '',
    `## Not explained (${summary.unexplained.length})`,
    '',
    '| where | mutator | original | replacement |',
    '|---|---|---|---|',
    ...summary.unexplained.map(row),
    '',
    `## Equivalent (${summary.explained.length}), by test/mutation/equivalents.ts`,
    '',
    '| where | mutator | original | replacement | why |',
    '|---|---|---|---|---|',
    ...summary.explained.map(row),
    ...(summary.unused.length > 0
      ? ['', '## Entries that matched no survivor', '', ...summary.unused.map((e) => `- ${e.file}: \`${e.code}\``)]
      : []),
    '',
  ].join('\n');
}

/** One line with both scores and the counts behind them. */
export function scoreLine(s: MutationSummary): string {
  return `${s.total} mutants, ${s.killed} killed, ${s.survived} survived (${s.equivalent} equivalent, ${s.unexplained.length} not explained): raw score ${s.raw.toFixed(2)} %, over non-equivalent mutants ${s.adjusted.toFixed(2)} %`;
}

function cell(text: string): string {
  const short = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return short.replaceAll('|', '\\|').replaceAll('`', "'");
}
