/**
 * Reading a HAR file as a stream: the scanner (har-scanner.ts) cuts each
 * `log.entries` and `log.pages` element out of the bytes and JSON.parse reads
 * it, so memory is bounded by the largest entry, not the file. Bad input is a
 * ConformanceError naming the file and the place.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import { createReadStream } from 'node:fs';
import { ConformanceError } from '../errors.ts';
import { HarScanner, ScanError, type ScannedElement } from './har-scanner.ts';

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
function badHar(file: string, where: string, problem: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_HAR', `${file}: ${where}: ${problem}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The entries of `file` in file order. Throws (from the iteration) a ConformanceError `PETSTORE_CONFORMANCE_BAD_HAR`
 * for a file that cannot be read, is not JSON, is JSON but not a HAR, is truncated, holds an entry without a
 * request, or an entry over `maxEntryBytes`.
 */
export async function* readHarEntries(file: string, maxEntryBytes = MAX_ENTRY_BYTES): AsyncGenerator<HarEntryRead> {
  const queue: HarEntryRead[] = [];
  const pages = new Map<string, string>();
  const take = (element: ScannedElement): void => {
    const where = `${element.array === 'entries' ? 'entry' : 'page'} ${element.index} (bytes ${element.start} to ${element.end})`;
    let value: unknown;
    try {
      value = JSON.parse(element.bytes.toString('utf8'));
    } catch {
      throw badHar(file, where, 'not JSON');
    }
    if (element.array === 'pages') {
      if (isObject(value) && typeof value.id === 'string' && pages.size < MAX_PAGES)
        pages.set(value.id, typeof value.title === 'string' ? value.title : value.id);
      return;
    }
    if (!isObject(value)) throw badHar(file, where, 'is not an object');
    if (!isObject(value.request) || typeof value.request.method !== 'string' || typeof value.request.url !== 'string')
      throw badHar(file, where, 'has no request (a HAR entry needs request.method and request.url)');
    const pageref = value.pageref;
    const title = typeof pageref === 'string' ? (pages.get(pageref) ?? pageref) : undefined;
    const page = title === '' ? undefined : title;
    queue.push({
      file,
      index: element.index,
      offset: element.end,
      entry: value,
      ...(page === undefined ? {} : { page }),
    });
  };
  const scanner = new HarScanner(take, maxEntryBytes);
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      scanner.write(chunk);
      yield* queue.splice(0);
    }
    const skeleton = scanner.end();
    const log = skeleton.log;
    if (!isObject(log)) throw badHar(file, 'log', 'JSON that is not a HAR: it has no log object');
    // A log without entries is not an empty recording: a HAR 1.2 log always holds the array, so the file is
    // something else (or cut short by its writer), and reading it as "0 entries" would hide that.
    if (!Array.isArray(log.entries))
      throw badHar(
        file,
        'log',
        `JSON that is not a HAR: log.entries is missing${typeof log.version === 'string' ? '' : ', and so is log.version'} (a HAR 1.2 log holds version, creator and entries)`,
      );
  } catch (err) {
    if (err instanceof ConformanceError) throw err;
    if (err instanceof ScanError) {
      const pending = /^spans more/.test(err.problem);
      throw badHar(file, pending ? `entry from byte ${err.offset}` : `at byte ${err.offset}`, err.problem);
    }
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw badHar(file, 'the file', `cannot be read (${code})`);
  } finally {
    stream.destroy();
  }
}
