/** Which of the spec's operations a request went to, by its method and its path matched against the templates. */
import type { OperationInfo } from '../../spec/index.ts';

/** A request's operation: its method, and its path below `basePath` matched against the spec's path templates. */
export function matchOperation(
  operations: readonly OperationInfo[],
  method: string,
  url: string,
  basePath: string,
): OperationInfo | undefined {
  const pathname = new URL(url).pathname;
  if (!pathname.startsWith(basePath)) return undefined;
  const rest = pathname.slice(basePath.length);
  const matches = (template: string): boolean =>
    new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`).test(rest);
  return operations.find((op) => op.method === method && matches(op.path));
}
