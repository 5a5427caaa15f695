/**
 * The mock's one error family, like undici's: every bad option or input to
 * any adapter throws a {@link PetstoreMockError}, whose `code` says which
 * kind (stable across versions; listed in docs/mock.md "Errors").
 */

import { CodedError } from '../../guard/errors.ts';

/** The kinds of {@link PetstoreMockError}, by stable code. */
export const PETSTORE_MOCK_ERROR_CODES = [
  /** An option the mock cannot use (a bad count, latency, baseUrl, key, port, ...). */
  'PETSTORE_MOCK_BAD_OPTION',
  /** A scenario refused (`scenarios.add`, `POST /__control/scenarios`). */
  'PETSTORE_MOCK_INVALID_SCENARIO',
  /** A set of pets refused (`pets`, `replacePets`, `PUT /__control/pets`, a pets file). */
  'PETSTORE_MOCK_INVALID_PETS',
  /** A request to an origin the dispatcher does not answer, with no fallback. */
  'PETSTORE_MOCK_UNKNOWN_ORIGIN',
  /** A request after `close()`. */
  'PETSTORE_MOCK_CLOSED',
  /** The runtime cannot carry this adapter (the dispatcher on Bun). */
  'PETSTORE_MOCK_UNSUPPORTED_RUNTIME',
  /** The server `petsFrom` names failed, or answered what the interface refuses: nothing was taken. */
  'PETSTORE_MOCK_SOURCE_FAILED',
  /** A Pact provider state outside the vocabulary, or a state-change request that is not one. */
  'PETSTORE_MOCK_UNKNOWN_STATE',
  /** Pets beyond the store's byte budget (`replacePets`, `PUT /__control/pets`): nothing was replaced. */
  'PETSTORE_MOCK_STORE_FULL',
  /** The store named by `store` cannot be used: unreachable, credentials refused, a schema the mock cannot use. */
  'PETSTORE_MOCK_STORE_FAILED',
  /** A client-coverage gate (`expectCoverage`, `expectNoInvalidRequests`) is not met. */
  'PETSTORE_MOCK_COVERAGE_NOT_MET',
  /** A session refused (a bad or taken name, the session limit, a database store) or not live (unknown, ended). */
  'PETSTORE_MOCK_SESSION_REFUSED',
] as const;

/** A stable code of {@link PetstoreMockError}. */
export type PetstoreMockErrorCode = (typeof PETSTORE_MOCK_ERROR_CODES)[number];

/**
 * What the mock throws for a bad option or input; `code` says which kind. A bad option's error names the option
 * (`option`, as the library spells it: `corsOrigins`) and says what is wrong with it (`problem`, the message
 * after the name), so a command can print its own flag (`--cors-origin`) in its place.
 */
export class PetstoreMockError extends CodedError<PetstoreMockErrorCode> {
  constructor(code: PetstoreMockErrorCode, message: string, about?: { option: string; problem: string }) {
    super(code, message, about);
    this.name = 'PetstoreMockError';
  }
}

/** A {@link PetstoreMockError} with code `PETSTORE_MOCK_BAD_OPTION` about `option`: its message is the name, then `problem`. */
export function badOption(option: string, problem: string): PetstoreMockError {
  const sep = problem.startsWith(':') || problem.startsWith('.') ? '' : ' ';
  return new PetstoreMockError('PETSTORE_MOCK_BAD_OPTION', `${option}${sep}${problem}`, { option, problem });
}
