/** Which of the spec's operations a request went to: the one matcher of spec/match.ts, which the mock routes by too. */
import type { OperationInfo } from '../../spec/index.ts';
import { operationMatcher } from '../../spec/match.ts';

/** A request's operation: its method, and its URL's path below `basePath` (the base URL's path, `/v1`). */
export function matchOperation(method: string, url: string, basePath: string): OperationInfo | undefined {
  return operationMatcher(basePath.replace(/\/+$/, '')).operation(method, new URL(url).pathname);
}
