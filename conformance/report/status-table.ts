/**
 * The status table: each documented (operation, status) of the spec and the
 * cases that actually got that status from the server.
 */
import type { OperationInfo } from '../../spec/index.ts';
import { matchOperation } from '../judge/operations.ts';
import type { CaseResult, StatusTableRow } from '../types.ts';

/** The statuses a case actually got, whole, for requests to its own operation. */
function answered(r: CaseResult, basePath: string): Set<number> {
  const statuses = r.exchanges
    .filter(
      (e) =>
        e.response &&
        !e.error &&
        matchOperation(e.request.method, e.request.url, basePath)?.operationId === r.operationId,
    )
    .map((e) => e.response!.status);
  return new Set(statuses);
}

/**
 * Each (operation, documented status) of the spec with the ids of the cases that actually got that status
 * from that operation, and of those that declare it (`covers`) but did not get it, apart as failed or as
 * answered otherwise (with an answer the case accepts); skipped cases do not count, and not-applicable ones are
 * listed apart (their control failed, so they exercised nothing).
 * `basePath` is the base URL's path (`/v1`); `generated` counts generated requests by `operation status`.
 */
export function buildStatusTable(
  operations: readonly OperationInfo[],
  results: readonly CaseResult[],
  basePath: string,
  generated?: ReadonlyMap<string, number>,
): StatusTableRow[] {
  const ran = results
    .filter((r) => r.outcome !== 'skipped' && r.outcome !== 'notApplicable')
    .map((r) => ({ r, got: answered(r, basePath) }));
  return operations.flatMap((op) =>
    op.statuses.map((status) => {
      const own = ran.filter(({ r }) => r.operationId === op.operationId);
      // A case that did not fail got an answer it accepts (a 400 instead of a clamped 200): not a gap.
      const expectedOnly = own.filter(({ r, got }) => r.covers.includes(status) && !got.has(status));
      return {
        operationId: op.operationId,
        method: op.method,
        path: op.path,
        status,
        caseIds: own.filter(({ got }) => got.has(status)).map(({ r }) => r.id),
        declaredOnly: expectedOnly.filter(({ r }) => r.outcome === 'failed').map(({ r }) => r.id),
        answeredOtherwise: expectedOnly.filter(({ r }) => r.outcome !== 'failed').map(({ r }) => r.id),
        notApplicable: results
          .filter((r) => r.outcome === 'notApplicable' && r.operationId === op.operationId && r.covers.includes(status))
          .map((r) => r.id),
        ...(generated ? { generated: generated.get(`${op.operationId} ${status}`) ?? 0 } : {}),
      };
    }),
  );
}
