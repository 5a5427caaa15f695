/**
 * Why a run could not happen at all. Each has a stable `code` and a one-line
 * message that says what to fix; the command exits 2 with it.
 */

/** The stable codes of {@link ConformanceError}. */
export type ConformanceErrorCode =
  | 'PETSTORE_CONFORMANCE_BAD_OPTIONS'
  | 'PETSTORE_CONFORMANCE_NOTHING_SELECTED'
  | 'PETSTORE_CONFORMANCE_UNREACHABLE'
  | 'PETSTORE_CONFORMANCE_NO_ANSWER'
  | 'PETSTORE_CONFORMANCE_TLS'
  | 'PETSTORE_CONFORMANCE_PROTOCOL_MISMATCH'
  | 'PETSTORE_CONFORMANCE_API_NOT_FOUND'
  | 'PETSTORE_CONFORMANCE_PROXY'
  | 'PETSTORE_CONFORMANCE_TRANSPORT_FAILED'
  | 'PETSTORE_CONFORMANCE_KEY_REJECTED';

/** Why a run could not happen at all; `code` is stable, `message` is one line. */
export class ConformanceError extends Error {
  readonly code: ConformanceErrorCode;
  constructor(code: ConformanceErrorCode, message: string) {
    super(message);
    this.name = 'ConformanceError';
    this.code = code;
  }
}
