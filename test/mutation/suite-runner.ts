/**
 * A Stryker test runner that runs the conformance suite (suite.ts) in its own process, kept loaded between mutants:
 * the mutated code switches mutants at run time, so each mutant costs one run of the suite, not a new worker that
 * loads the suite, fast-check and the mock again (vitest's runner took 15 s a mutant here, this about 2).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  determineHitLimitReached,
  type MutantRunOptions,
  type MutantRunResult,
  type TestResult,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
  toMutantRunResult,
} from '@stryker-mutator/api/test-runner';
import type { SuiteTest } from './suite.ts';

/** What the instrumented code reads and writes on `globalThis.__stryker__`. */
interface StrykerGlobal {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
  hitCount?: number;
  hitLimit?: number;
}

function strykerGlobal(name: string): StrykerGlobal {
  const g = globalThis as unknown as Record<string, StrykerGlobal>;
  g[name] ??= {};
  return g[name];
}

class SuiteRunner implements TestRunner {
  static inject = [commonTokens.options] as const;
  #tests: readonly SuiteTest[] | undefined;
  readonly #ns = strykerGlobal('__stryker__');

  capabilities(): TestRunnerCapabilities {
    // A static mutant (module-level code) needs the modules loaded anew: Stryker starts a new process for it.
    return { reloadEnvironment: false };
  }

  /** The sandbox's suite, loaded once: after a static mutant is activated, so that it is loaded mutated. */
  async #load(): Promise<readonly SuiteTest[]> {
    this.#tests ??= (
      (await import(pathToFileURL(resolve('test/mutation/suite.ts')).href)) as {
        SUITE_TESTS: readonly SuiteTest[];
      }
    ).SUITE_TESTS;
    return this.#tests;
  }

  async #run(only: readonly string[] | undefined, bail: boolean, coverage: boolean): Promise<TestResult[]> {
    const results: TestResult[] = [];
    for (const test of await this.#load()) {
      if (only && !only.includes(test.id)) continue;
      if (coverage) this.#ns.currentTestId = test.id;
      const started = performance.now();
      let problems: string[];
      try {
        problems = await test.run();
      } catch (error) {
        problems = [`the run threw: ${error instanceof Error ? error.message : String(error)}`];
      }
      this.#ns.currentTestId = undefined;
      const timeSpentMs = Math.round(performance.now() - started);
      const base = { id: test.id, name: test.id, timeSpentMs };
      if (problems.length === 0) results.push({ ...base, status: TestStatus.Success });
      else {
        results.push({ ...base, status: TestStatus.Failed, failureMessage: problems.slice(0, 5).join('; ') });
        if (bail) break;
      }
    }
    return results;
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    this.#ns.activeMutant = undefined;
    await this.#load();
    const tests = await this.#run(undefined, false, options.coverageAnalysis !== 'off');
    return { status: DryRunStatus.Complete, tests, mutantCoverage: this.#ns.mutantCoverage as never };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    this.#ns.activeMutant = options.activeMutant.id;
    this.#ns.hitLimit = options.hitLimit;
    this.#ns.hitCount = 0;
    try {
      const tests = await this.#run(options.testFilter, !options.disableBail, false);
      const timeOut = determineHitLimitReached(this.#ns.hitCount, options.hitLimit);
      return toMutantRunResult(timeOut ?? { status: DryRunStatus.Complete, tests });
    } finally {
      this.#ns.activeMutant = undefined;
      this.#ns.hitLimit = undefined;
    }
  }
}

/** The plugin Stryker loads (`plugins` in run.ts): the test runner named `petstore-suite`. */
export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'petstore-suite', SuiteRunner)];
