/**
 * Report targets, in one place for every command and the library: `--reporter NAME[=FILE]` read into a
 * {@link ReportTarget}, its lines of help, the checks a set of targets must pass, and the writing. A file is replaced
 * only when it is a regular file (never through a symlink, never a directory), and atomically: written beside it,
 * then renamed over it. Node only (node:fs).
 */
import { lstatSync, mkdirSync, renameSync, rmSync, type Stats, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConformanceError } from '../errors.ts';
import type { Report } from '../types.ts';
import { REPORTER_TABLE, REPORTERS, type ReporterName, render, reporter } from './index.ts';

/** One report to write: which reporter, and the file (without one, the output stream: standard output). */
export interface ReportTarget {
  reporter: ReporterName;
  file?: string;
}

/** A report that could not be written, and why (an errno code or a line). */
export interface ReportNotWritten {
  target: ReportTarget;
  error: string;
}

function bad(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message, { option: 'reporter' });
}

/** Reads one `--reporter NAME[=FILE]`; throws a ConformanceError naming the reporters for an unknown one. */
export function parseReportTarget(spec: string): ReportTarget {
  const [name = '', ...rest] = spec.split('=');
  if (reporter(name) === undefined) throw bad(`unknown reporter ${JSON.stringify(name)} (${REPORTERS.join(', ')})`);
  const file = rest.join('=');
  if (rest.length > 0 && file === '') throw bad(`--reporter ${name}= needs a file name`);
  return file ? { reporter: name as ReporterName, file } : { reporter: name as ReporterName };
}

/**
 * Refuses targets that would spoil each other: two on the one output stream (the text and then the XML in one
 * stream, which no reader can take apart), or two writing the same file (the second replaces the first).
 */
function checkReportTargets(targets: readonly ReportTarget[]): void {
  const toStream = targets.filter((t) => t.file === undefined);
  if (toStream.length > 1)
    throw bad(
      `${toStream.map((t) => `--reporter ${t.reporter}`).join(' and ')} would all write to standard output, one after the other: give all but one a file (--reporter ${toStream[1]!.reporter}=FILE)`,
    );
  const seen = new Map<string, ReporterName>();
  for (const t of targets) {
    if (t.file === undefined) continue;
    const path = resolve(t.file);
    const before = seen.get(path);
    if (before !== undefined)
      throw bad(`--reporter ${before} and --reporter ${t.reporter} would both write ${t.file}: give each its own file`);
    seen.set(path, t.reporter);
  }
}

/** Every `--reporter` of a command line, checked (default: `pretty` to standard output). */
export function parseReportTargets(specs: readonly string[] | undefined): ReportTarget[] {
  const targets = (specs?.length ? specs : ['pretty']).map(parseReportTarget);
  checkReportTargets(targets);
  return targets;
}

/** Whether one of the targets needs the run's exchange log kept (the har reporter). */
export function needsExchangeLog(targets: readonly ReportTarget[]): boolean {
  return targets.some((t) => reporter(t.reporter)?.needsExchangeLog === true);
}

/** The help of `--reporter`, one line per reporter, from the reporter table, indented by `indent`. */
export function reporterUsage(indent: number): string {
  const width = Math.max(...REPORTERS.map((name) => name.length));
  const pad = ' '.repeat(indent);
  return [
    `${'  --reporter R[=FILE]'.padEnd(indent)}one of these; repeatable; without =FILE to stdout (default: pretty);`,
    `${pad}at most one to stdout`,
    ...REPORTERS.map((name) => `${pad}  ${name.padEnd(width)}  ${REPORTER_TABLE[name].help}`),
  ].join('\n');
}

/** Options of {@link writeReports}. */
export interface WriteReportsOptions {
  /** Where a target without a file is written (default: process.stdout). */
  out?: { write(text: string): unknown };
  /** Colour the text written to `out` (default false); files never are. */
  color?: boolean;
}

/**
 * Writes each report; one that cannot be written is returned with why, and the others are still written. Throws a
 * ConformanceError, before writing anything, for targets {@link checkReportTargets} refuses.
 */
export function writeReports(
  report: Report,
  targets: readonly ReportTarget[],
  options: WriteReportsOptions = {},
): ReportNotWritten[] {
  checkReportTargets(targets);
  const failed: ReportNotWritten[] = [];
  for (const target of targets) {
    if (target.file === undefined) {
      (options.out ?? process.stdout).write(render(target.reporter, report, { color: options.color === true }));
      continue;
    }
    try {
      writeReportFile(target.file, render(target.reporter, report, { color: false }));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      failed.push({ target, error: e.code ?? e.message });
    }
  }
  return failed;
}

/** The line a command prints for a report it could not write; the exit code stays the run's. */
export function notWrittenLine(command: string, failure: ReportNotWritten): string {
  return `${command}: the ${failure.target.reporter} report was not written to ${failure.target.file}: ${failure.error} (the exit code is still the run's)\n`;
}

/** Writes `text` to `file` as {@link writeReports} does; throws when it cannot. */
function writeReportFile(file: string, text: string): void {
  let existing: Stats | undefined;
  try {
    existing = lstatSync(file);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile())
    throw new Error(
      existing.isSymbolicLink() ? 'it is a symbolic link; refusing to write through it' : 'it is not a regular file',
    );
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
