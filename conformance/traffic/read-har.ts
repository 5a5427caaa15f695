/**
 * Reading a HAR file as a stream: each `log.entries` item is parsed on its own
 * (@streamparser/json, keepStack off), so memory is bounded by the largest
 * entry, not the file. `log.pages` are read the same way, for the page an entry
 * belongs to. Bad input is a ConformanceError naming the file and the place.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import { createReadStream } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { ConformanceError } from '../errors.ts';

/** One entry as read: where it was, and the entry itself (not yet checked beyond being an object with a request). */
export interface HarEntryRead {
  file: string;
  /** Its index in the file's `log.entries`. */
  index: number;
  /** The byte offset where it ended. */
  offset: number;
  entry: Record<string, unknown>;
  /** The title of its page (`pageref`), when the file names one. */
  page?: string;
}

/** Bytes one entry may span: past it the file is refused (memory is bounded by the largest entry kept). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** Pages remembered per file for their titles. */
const MAX_PAGES = 10_000;

/** A bad HAR: one line naming the file and the place. */
export function badHar(file: string, where: string, problem: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_HAR', `${file}: ${where}: ${problem}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The parser's own words without its chunk position (ours is the absolute one). */
function parserProblem(message: string): string {
  if (/ended in the middle|not all the data/i.test(message))
    return 'the file ends in the middle of the JSON (truncated)';
  const unexpected = /^Unexpected (".*?"|\S+)/.exec(message);
  return unexpected ? `not JSON: unexpected ${unexpected[1]}` : `not JSON: ${message.split('\n')[0]}`;
}

/**
 * The entries of `file` in file order. Throws (from the iteration) a ConformanceError `PETSTORE_CONFORMANCE_BAD_HAR`
 * for a file that cannot be read, is not JSON, is JSON but not a HAR, is truncated, holds an entry without a
 * request, or an entry over `maxEntryBytes`.
 */
export async function* readHarEntries(file: string, maxEntryBytes = MAX_ENTRY_BYTES): AsyncGenerator<HarEntryRead> {
  const parser = new JSONParser({ paths: ['$.log.version', '$.log.pages.*', '$.log.entries.*'], keepStack: false });
  const queue: HarEntryRead[] = [];
  const pages = new Map<string, string>();
  let offset = 0;
  let lastEnd = 0;
  let index = 0;
  let sawLog = false;
  let failure: ConformanceError | undefined;
  let first = true;
  parser.onToken = ({ offset: at }) => {
    offset = at;
  };
  parser.onValue = ({ value, key, stack }) => {
    const container = stack.at(-1)?.key;
    if (key === 'version' && stack.length === 2) {
      sawLog = true;
      return;
    }
    if (container === 'pages') {
      if (isObject(value) && typeof value.id === 'string' && pages.size < MAX_PAGES)
        pages.set(value.id, typeof value.title === 'string' ? value.title : value.id);
      return;
    }
    sawLog = true;
    const where = `entry ${index} (ending at byte ${offset})`;
    if (!isObject(value)) failure ??= badHar(file, where, 'is not an object');
    else if (
      !isObject(value.request) ||
      typeof value.request.method !== 'string' ||
      typeof value.request.url !== 'string'
    )
      failure ??= badHar(file, where, 'has no request (a HAR entry needs request.method and request.url)');
    else {
      const pageref = value.pageref;
      const title = typeof pageref === 'string' ? (pages.get(pageref) ?? pageref) : undefined;
      const page = title === '' ? undefined : title;
      queue.push({ file, index, offset, entry: value, ...(page === undefined ? {} : { page }) });
    }
    index++;
    lastEnd = offset;
  };
  parser.onError = (err) => {
    const at = /absolute position "?(\d+)/.exec(err.message)?.[1];
    failure ??= badHar(file, `at byte ${at ?? offset}`, parserProblem(err.message));
  };
  let read = 0;
  const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first) {
        const start = chunk
          .toString('utf8', 0, Math.min(chunk.length, 64))
          .replace(/^\uFEFF/, '')
          .trimStart();
        if (start !== '' && !start.startsWith('{')) {
          const what = /^[[\d"tfn-]/.test(start) ? 'JSON that is not a HAR (not an object)' : 'not JSON';
          throw badHar(file, 'at byte 0', `${what}: it begins ${JSON.stringify(start.slice(0, 16))}`);
        }
        if (start !== '') first = false;
      }
      read += chunk.length;
      if (!parser.isEnded) parser.write(chunk);
      if (failure) throw failure;
      if (read - lastEnd > maxEntryBytes)
        throw badHar(
          file,
          `entry ${index} (from byte ${lastEnd})`,
          `spans more than ${maxEntryBytes} bytes: not read (the limit keeps memory bounded)`,
        );
      yield* queue.splice(0);
    }
  } catch (err) {
    if (err instanceof ConformanceError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw badHar(file, 'the file', `cannot be read (${code})`);
  } finally {
    stream.destroy();
  }
  if (!parser.isEnded) parser.end();
  if (failure) throw failure;
  if (read === 0 || first) throw badHar(file, 'at byte 0', 'the file is empty, not a HAR');
  if (!sawLog) throw badHar(file, 'log', 'JSON that is not a HAR: no log.version and no log.entries');
  yield* queue.splice(0);
}
