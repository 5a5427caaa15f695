/**
 * `npm run mutation`: Stryker mutates the mock's behaviour and runs the conformance suite (suite.ts, by suite-runner.ts)
 * against each mutant; then every survivor is matched to the list of equivalents (equivalents.ts) or reported as a
 * gap. Not part of `npm test`: about 25 minutes on two cores.
 *
 *   npm run mutation                              every file below, two mutants at a time
 *   npm run mutation -- --mutate mock/core/auth.ts   only that file (repeatable; Stryker's `file:line-line` works)
 *   npm run mutation -- --reclassify              the last run's results again, against the list as it is now
 *
 * Prints the raw score and the score over non-equivalent mutants; writes reports/mutation/survivors.md and
 * mutation.json. The results are kept by file (results.json): a run with --mutate replaces those of the files it
 * mutated, and the scores count every file's latest, naming the files whose results are older than this run.
 * Exits 0 when every survivor is explained, 1 when one is not, 2 when it could not run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LogLevel } from '@stryker-mutator/api/core';
import { classify, type MutantOutcome, scoreLine, survivorsReport } from './classify.ts';
import { EQUIVALENTS } from './equivalents.ts';

/** The mock's behaviour: what a server could get wrong. */
export const MUTATED = [
  'mock/core/operations.ts',
  'mock/core/auth.ts',
  'mock/core/query.ts',
  'mock/core/responses.ts',
  'mock/core/exact-numbers.ts',
  'mock/core/listing.ts',
  'mock/core/store.ts',
  'mock/core/handler.ts',
  'mock/core/layers.ts',
  'mock/node/server.ts',
];

const OUT = 'reports/mutation';
const RESULTS = `${OUT}/results.json`;

/** Each mutated file's results from its latest run, and when that run was. */
type KeptResults = Record<string, { date: string; results: MutantOutcome[] }>;

function readKept(): KeptResults | undefined {
  try {
    return JSON.parse(readFileSync(RESULTS, 'utf8')) as KeptResults;
  } catch {
    return undefined;
  }
}

async function mutate(files: string[], concurrency: number): Promise<MutantOutcome[]> {
  // Loaded only for a run: --reclassify needs none of it.
  const { Stryker } = await import('@stryker-mutator/core');
  const stryker = new Stryker({
    testRunner: 'petstore-suite',
    plugins: [resolve('test/mutation/suite-runner.ts')],
    // The runner and the suite are TypeScript, loaded by tsx in each of Stryker's worker processes.
    testRunnerNodeArgs: ['--import', 'tsx'],
    mutate: files,
    // Each mutant runs only the tests that reached it, and a test that fails ends its run.
    coverageAnalysis: 'perTest',
    concurrency,
    reporters: ['progress', 'json'],
    jsonReporter: { fileName: `${OUT}/mutation.json` },
    tempDirName: '.stryker-tmp',
    // The sandbox holds what the suite and the mock import, not the docs, the bench or the built package.
    ignorePatterns: ['/*', '!/mock', '!/spec', '!/conformance', '!/fixtures', '!/test', '!/package.json'],
    timeoutMS: 10_000,
    logLevel: 'warn' as LogLevel,
    fileLogLevel: 'off' as LogLevel,
  });
  const results = await stryker.runMutationTest();
  return results.map((r) => ({
    id: r.id,
    fileName: relative(process.cwd(), r.fileName).replaceAll('\\', '/'),
    mutatorName: r.mutatorName,
    replacement: r.replacement,
    status: r.status,
    location: r.location,
  }));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      mutate: { type: 'string', multiple: true },
      concurrency: { type: 'string', default: '2' },
      reclassify: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run mutation [-- --mutate FILE ... | --reclassify] [--concurrency N]');
    return 0;
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    console.error(`--concurrency must be an integer from 1 to 16, got ${JSON.stringify(values.concurrency)}`);
    return 2;
  }
  const started = performance.now();
  const now = new Date().toISOString();
  let kept = readKept();
  if (values.reclassify && kept === undefined) {
    console.error(`no results to classify again (${RESULTS}): run npm run mutation first`);
    return 2;
  }
  if (!values.reclassify) {
    const fresh = await mutate(values.mutate ?? MUTATED, concurrency);
    const runFiles = new Set(fresh.map((r) => r.fileName));
    kept = Object.fromEntries(Object.entries(kept ?? {}).filter(([file]) => !runFiles.has(file)));
    for (const r of fresh) (kept[r.fileName] ??= { date: now, results: [] }).results.push(r);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(kept, null, 1)}\n`);
  }
  const files = Object.entries(kept!).filter(([file]) => MUTATED.includes(file));
  const results = files.flatMap(([, run]) => run.results);
  const older = files.filter(([, run]) => run.date !== now).map(([file, run]) => `${file} (${run.date.slice(0, 16)})`);
  if (results.length === 0) {
    console.error('no mutant was made: nothing was measured');
    return 2;
  }
  const sources = new Map<string, string>();
  const sourceOf = (file: string) => sources.get(file) ?? sources.set(file, readFileSync(file, 'utf8')).get(file)!;
  const summary = classify(results, sourceOf, EQUIVALENTS);
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  const date = now.slice(0, 10);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/survivors.md`, survivorsReport(summary, `Mutation run of ${date}`));
  console.log(scoreLine(summary));
  console.log(`${values.reclassify ? 'classified again' : `took ${minutes} min`}; survivors: ${OUT}/survivors.md`);
  if (older.length > 0) console.log(`results of earlier runs: ${older.join(', ')}`);
  if (summary.unused.length > 0) console.log(`${summary.unused.length} entries of equivalents.ts matched no survivor`);
  return summary.unexplained.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`the mutation run could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
