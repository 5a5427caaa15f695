/**
 * The mock's one error family, like undici's: every bad option or input to
 * any adapter throws a {@link PetstoreMockError}, whose `code` says which
 * kind (stable across versions; listed in docs/mock.md "Errors").
 */

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
] as const;

/** A stable code of {@link PetstoreMockError}. */
export type PetstoreMockErrorCode = (typeof PETSTORE_MOCK_ERROR_CODES)[number];

/** What the mock throws for a bad option or input; `code` says which kind. */
export class PetstoreMockError extends Error {
  readonly code: PetstoreMockErrorCode;
  constructor(code: PetstoreMockErrorCode, message: string) {
    super(message);
    this.name = 'PetstoreMockError';
    this.code = code;
  }
}

/** A {@link PetstoreMockError} with code `PETSTORE_MOCK_BAD_OPTION`. */
export function badOption(message: string): PetstoreMockError {
  return new PetstoreMockError('PETSTORE_MOCK_BAD_OPTION', message);
}
