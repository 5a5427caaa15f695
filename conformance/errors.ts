/**
 * Why a run could not happen at all. Each has a stable `code` and a one-line
 * message that says what to fix; the command exits 2 with it.
 */

import { CodedError } from '../guard/errors.ts';
import type { Report } from './types.ts';

/** The stable codes of {@link ConformanceError}. */
export type ConformanceErrorCode =
  | 'PETSTORE_CONFORMANCE_BAD_OPTIONS'
  | 'PETSTORE_CONFORMANCE_NOTHING_SELECTED'
  | 'PETSTORE_CONFORMANCE_UNREACHABLE'
  | 'PETSTORE_CONFORMANCE_NOT_UP'
  | 'PETSTORE_CONFORMANCE_NO_ANSWER'
  | 'PETSTORE_CONFORMANCE_TLS'
  | 'PETSTORE_CONFORMANCE_PROTOCOL_MISMATCH'
  | 'PETSTORE_CONFORMANCE_API_NOT_FOUND'
  | 'PETSTORE_CONFORMANCE_PROXY'
  | 'PETSTORE_CONFORMANCE_TRANSPORT_FAILED'
  | 'PETSTORE_CONFORMANCE_KEY_REJECTED'
  | 'PETSTORE_CONFORMANCE_MAX_TIME'
  | 'PETSTORE_CONFORMANCE_BAD_HAR';

/**
 * Why a run could not happen at all, or ended early; `code` is stable, `message` is one line. When the run had
 * started (the settings were good), `report` is what it judged before it ended, with `ended` set: the CLI writes it
 * to every requested reporter before it exits 2.
 */
export class ConformanceError extends CodedError<ConformanceErrorCode> {
  report?: Report;
  constructor(code: ConformanceErrorCode, message: string, about?: { option: string; problem?: string }) {
    super(code, message, about);
    this.name = 'ConformanceError';
  }
}

/**
 * A {@link ConformanceError} `PETSTORE_CONFORMANCE_BAD_OPTIONS` about `option`: its message is the option's name then
 * `problem`, or `message` when given (a message that does not read as the name then a problem).
 */
export function badOptions(option: string, problem: string, message?: string): ConformanceError {
  return new ConformanceError(
    'PETSTORE_CONFORMANCE_BAD_OPTIONS',
    message ?? `${option} ${problem}`,
    message === undefined ? { option, problem } : { option },
  );
}

/**
 * The codes a failed exchange (a request that got no usable answer) carries when the suite sets them itself; any
 * other code is the transport's own (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...).
 */
export const EXCHANGE_ERROR_CODES = {
  /** No complete answer within the timeout. */
  timeout: 'PETSTORE_TIMEOUT',
  /** The target does not speak HTTP/1.1 (undici's parser failed). */
  notHttp: 'PETSTORE_NOT_HTTP',
  /** The request failed with no code of its own. */
  requestFailed: 'PETSTORE_REQUEST_FAILED',
  /** The answer's body was larger than the suite reads. */
  bodyTooLarge: 'PETSTORE_BODY_TOO_LARGE',
  /** 429/503 answers past the wait budget: not sent, or not judged. */
  rateLimited: 'PETSTORE_RATE_LIMITED',
  /** The run ended (max time, an unreachable target) before this request. */
  runEnded: 'PETSTORE_RUN_ENDED',
  /** The proxy answered for the server (its own error page): not the server's answer, never judged as one. */
  proxyAnswered: 'PETSTORE_PROXY_ANSWERED',
  /** A generated request the generator itself got wrong (a bug of the suite, reported as such). */
  generationBug: 'PETSTORE_GENERATION_BUG',
  /** A request the run's transport cannot send as the case asks (absolute form through a proxy): never judged. */
  notSent: 'PETSTORE_NOT_SENT',
} as const;

/** A code of {@link EXCHANGE_ERROR_CODES}. */
export type ExchangeErrorCode = (typeof EXCHANGE_ERROR_CODES)[keyof typeof EXCHANGE_ERROR_CODES];
