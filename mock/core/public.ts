/**
 * What every adapter's entry exports besides its own factory: the control
 * interface, the option and data types, and the error class. One list, so
 * the three entries stay alike.
 */

export type {
  CoverageReport,
  CoverageSource,
  InvalidRequestKind,
  ResponseCoverage,
  VariationCoverage,
} from './coverage.ts';
export {
  type CoverageHolder,
  type CoverageRequirement,
  expectCoverage,
  expectNoInvalidRequests,
  formatCoverage,
} from './coverage-report.ts';
export { PetstoreMockError, type PetstoreMockErrorCode } from './errors.ts';
export type { JournalEntry, JournalFilter } from './journal.ts';
export type { ForcedSource } from './layers.ts';
export { DEFAULT_API_KEY, type MockOptions } from './mock.ts';
export type { Latency } from './options.ts';
export type { PactFile, PactOptions, PactPaths } from './pact/document.ts';
export type { PactBody, PactInteraction } from './pact/interaction.ts';
export type { ProviderState, ProviderStateChange } from './pact/provider-states.ts';
export type { SkippedKind } from './pact/recorder.ts';
export type { PactMatcher, PactRuleCategory } from './pact/schema-rules.ts';
export type { PetstoreMock, PetstoreSession, PetsView, ScenarioControls } from './petstore-mock.ts';
export type { Scenario, ScenarioInput } from './scenarios.ts';
export type { SessionInfo, SessionOptions } from './sessions.ts';
