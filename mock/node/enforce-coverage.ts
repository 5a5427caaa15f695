/**
 * The client-coverage gate for a whole test run. A throw fails one test, but where a suite-wide gate lives
 * (vitest's `globalSetup` teardown, Jest's `globalTeardown`, a script after the tests) vitest only logs a throw
 * and exits 0: this gate says what is unmet on stderr and sets the process's exit code instead.
 */
import {
  type CoverageHolder,
  type CoverageRequirement,
  expectCoverage,
  expectNoInvalidRequests,
} from '../core/coverage-report.ts';

/** What a whole run must show: the responses and variations received, and (unless allowed) no refused request. */
export interface CoverageGate extends CoverageRequirement {
  /** A request the contract refuses, sent by the client with no test forcing it, fails the gate unless `true`. */
  allowInvalidRequests?: boolean;
}

/** The gate's unmet requirements, one message each (empty when it holds). */
export function coverageGateFailures(holder: CoverageHolder, gate: CoverageGate = {}): string[] {
  const report = 'coverage' in holder && typeof holder.coverage === 'function' ? holder.coverage() : holder;
  const failures: string[] = [];
  const checks = [
    () => expectCoverage(report, gate),
    ...(gate.allowInvalidRequests === true ? [] : [() => expectNoInvalidRequests(report)]),
  ];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  return failures;
}

/**
 * Fails the test run when the gate does not hold: each unmet requirement on stderr, and `process.exitCode = 1`
 * (vitest, Jest and Node all exit with it). Returns whether the gate held.
 */
export function enforceCoverage(holder: CoverageHolder, gate: CoverageGate = {}): boolean {
  const failures = coverageGateFailures(holder, gate);
  if (failures.length === 0) return true;
  process.stderr.write(failures.map((failure) => `petstore coverage gate: ${failure}\n`).join(''));
  process.exitCode = 1;
  return false;
}
