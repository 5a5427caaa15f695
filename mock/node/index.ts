/**
 * The mock in Node (`petstore-toolkit/mock`): start a seeded, stateful Petstore on a port
 * (0 picks a free one) and get back its control interface (a {@link PetstoreMock} plus `origin`).
 * Faker is not loaded unless another seed or count asks for it.
 */
export * from '../core/public.ts';
export { type CoverageGate, enforceCoverage } from './enforce-coverage.ts';
export { loadPetsFile } from './fixtures.ts';
export type { RequestLogEntry, ServerTimeouts } from './server.ts';
export { type MockServer, type MockServerOptions, startMockServer } from './start.ts';
