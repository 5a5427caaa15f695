/**
 * `petstore-conformance merge FILE.json …`: the JSON reports of a split run's shards merged into the whole run's
 * reports and exit code, as Playwright's merge-reports: 0 all well, 1 a required failure, 2 the run could not test
 * all of it, or the files are not every shard of one run (one line).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConformanceError } from '../errors.ts';
import { shouldColor } from '../report/index.ts';
import { mergeReports, type ShardReport } from '../report/merge.ts';
import { notWrittenLine, parseReportTargets, reporterUsage, writeReports } from '../report/targets.ts';
import type { Report } from '../types.ts';
import { exitOf } from './exit.ts';

/** The help of `merge`. */
const MERGE_HELP = `Usage: npx petstore-conformance merge FILE.json [FILE.json …] [options]

Merges the JSON reports of a split run (each shard run with --shard i/n --reporter json=FILE) into
the whole run's reports and exit code: every case once, counts, causes and the status table over
all of them; JUnit with one test suite per shard. Shards of different runs (base URL, seed, shard
count, selection), a missing shard or one given twice are refused.

${reporterUsage(24)}
  -h, --help            show this help

Exit status: 0 every required case passed, 1 a case failed, 2 the run could not test all of it,
a shard ended early, or the files are not every shard of one run (one line says why).
`;

/** Bytes one shard's JSON report may hold: a report is kilobytes to megabytes; past this it is refused unread. */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

const OPTIONS = {
  reporter: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

function bad(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message);
}

/** What a shard's JSON report must hold to be merged, each with how to say it is missing. */
const REQUIRED: [string, (r: Record<string, unknown>) => boolean][] = [
  ['tool "petstore-conformance"', (r) => r.tool === 'petstore-conformance'],
  ['cases', (r) => Array.isArray(r.cases)],
  ['summary', (r) => typeof r.summary === 'object' && r.summary !== null],
  ['statusTable', (r) => Array.isArray(r.statusTable)],
  ['created', (r) => typeof r.created === 'object' && r.created !== null],
  ['throttling', (r) => typeof r.throttling === 'object' && r.throttling !== null],
  ['options', (r) => typeof r.options === 'object' && r.options !== null],
  ['baseUrl', (r) => typeof r.baseUrl === 'string'],
  ['startedAt', (r) => typeof r.startedAt === 'string'],
];

/** Reads one shard's JSON report; a file that is not one is a ConformanceError naming it and what it lacks. */
function readShardReport(file: string): ShardReport {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (e) {
    throw bad(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (size > MAX_REPORT_BYTES)
    throw bad(`${file}: ${size} bytes, more than a report holds (${MAX_REPORT_BYTES}): not read`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw bad(`${file}: not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw bad(`${file}: not a JSON report of petstore-conformance (--reporter json=FILE): not an object`);
  const lacking = REQUIRED.filter(([, holds]) => !holds(json as Record<string, unknown>)).map(([name]) => name);
  if (lacking.length > 0)
    throw bad(`${file}: not a JSON report of petstore-conformance (--reporter json=FILE): no ${lacking.join(', no ')}`);
  const shard = (json as { shard?: { current?: unknown; total?: unknown; selection?: unknown } }).shard;
  if (
    shard !== undefined &&
    !(Number.isInteger(shard.current) && Number.isInteger(shard.total) && typeof shard.selection === 'string')
  )
    throw bad(`${file}: its shard is not { current, total, selection }`);
  return { file, report: json as Report };
}

/** Runs `merge` and returns its exit code. */
export async function mergeMain(
  args: string[],
  env: NodeJS.ProcessEnv,
  out: NodeJS.WritableStream & { isTTY?: boolean },
  err: NodeJS.WritableStream,
): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (e) {
      throw bad((e as Error).message.split('\n')[0]!);
    }
    if (parsed.values.help) {
      out.write(MERGE_HELP);
      return 0;
    }
    const targets = parseReportTargets(parsed.values.reporter);
    if (parsed.positionals.length === 0) throw bad('no JSON report given: merge FILE.json [FILE.json …]');
    const report: Report = mergeReports(parsed.positionals.map(readShardReport));
    for (const failure of writeReports(report, targets, { out, color: shouldColor(out, env) }))
      err.write(notWrittenLine('petstore-conformance merge', failure));
    const exit = exitOf(report);
    if (exit.line) err.write(`petstore-conformance merge: ${exit.line}\n`);
    return exit.code;
  } catch (e) {
    const line = e instanceof ConformanceError ? e.message : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
    err.write(
      `petstore-conformance merge: ${line.split('\n')[0]}${e instanceof ConformanceError ? ' (see merge --help)' : ''}\n`,
    );
    return 2;
  }
}
