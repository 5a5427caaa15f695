/**
 * Reports written to files, as the command writes them, for library users holding a {@link Report}: each
 * reporter's text to its file. A file is replaced only when it is a regular file (never through a symlink, never a
 * directory), and atomically: written beside it, then renamed over it. Node only (node:fs).
 */
import { lstatSync, mkdirSync, renameSync, rmSync, type Stats, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Report } from '../types.ts';
import { type ReporterName, render } from './index.ts';

/** One report to write: which reporter, and the file. */
export interface ReportTarget {
  reporter: ReporterName;
  file: string;
}

/** Writes each report; one that cannot be written is returned with why, and the others are still written. */
export function writeReports(
  report: Report,
  targets: readonly ReportTarget[],
): { target: ReportTarget; error: string }[] {
  const failed: { target: ReportTarget; error: string }[] = [];
  for (const target of targets)
    try {
      writeReportFile(target.file, render(target.reporter, report, { color: false }));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      failed.push({ target, error: e.code ?? e.message });
    }
  return failed;
}

/** Writes `text` to `file` as {@link writeReports} does; throws when it cannot. */
export function writeReportFile(file: string, text: string): void {
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
