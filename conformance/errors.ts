/**
 * Why a run could not happen at all. Each has a stable `code` and a one-line
 * message that says what to fix; the command exits 2 with it.
 */

import type { Report } from './types.ts';

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
  | 'PETSTORE_CONFORMANCE_KEY_REJECTED'
  | 'PETSTORE_CONFORMANCE_MAX_TIME';

/**
 * Why a run could not happen at all, or ended early; `code` is stable, `message` is one line. When the run had
 * started (the settings were good), `report` is what it judged before it ended, with `ended` set: the CLI writes it
 * to every requested reporter before it exits 2.
 */
export class ConformanceError extends Error {
  readonly code: ConformanceErrorCode;
  report?: Report;
  constructor(code: ConformanceErrorCode, message: string) {
    super(message);
    this.name = 'ConformanceError';
    this.code = code;
  }
}
