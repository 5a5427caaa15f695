/** How `judge` and `merge` read their arguments: one strict parse, one kind of usage error. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConformanceError } from '../errors.ts';

/** `args` parsed strictly against `options`, positionals allowed; a usage error is one line, `BAD_OPTIONS` (exit 2). */
export function parseCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', (e as Error).message.split('\n')[0]!);
  }
}
