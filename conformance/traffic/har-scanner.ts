/**
 * A bounded scanner for a HAR file's bytes: it finds each element of
 * `log.entries` and `log.pages` (tracking only strings and nesting, not
 * values) and hands its bytes to JSON.parse, so memory is bounded by the
 * largest entry and the parsing is V8's own. Everything outside those two
 * arrays (the "skeleton": version, creator, comments) is kept, bounded, and
 * parsed once at the end, so the file as a whole must be JSON.
 * (@streamparser/json read 7 MB/s here, a 2 GB HAR in five minutes; this reads it at disk speed.)
 */

/** What the scanner found: an element of `log.entries` or `log.pages`, as bytes. */
export interface ScannedElement {
  array: 'entries' | 'pages';
  /** Its index in its array. */
  index: number;
  bytes: Buffer;
  /** Byte offsets in the file where it starts and ends. */
  start: number;
  end: number;
}

/** Why the bytes are not a HAR: the problem and the byte offset. */
export class ScanError extends Error {
  constructor(
    readonly problem: string,
    readonly offset: number,
  ) {
    super(problem);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Bytes the skeleton may hold. */
const MAX_SKELETON = 1024 * 1024;

/** Scans chunks as they come; `onElement` gets each element whole. */
export class HarScanner {
  private offset = 0;
  /** The containers open outside a captured element: their kind and the key they are the value of. */
  private readonly stack: { kind: number; key: string | undefined }[] = [];
  private inString = false;
  private escaped = false;
  private stringBytes: number[] | undefined;
  private lastString: string | undefined;
  private pendingKey: string | undefined;
  /** The array being split into elements, when inside one. */
  private splitting: 'entries' | 'pages' | undefined;
  private expectValue = false;
  private counts = { entries: 0, pages: 0 };
  /** The element being captured: its pieces, nesting, start. */
  private pieces: Buffer[] = [];
  private piecesBytes = 0;
  private depth = 0;
  private elementStart = 0;
  private capturing = false;
  private readonly skeleton: Buffer[] = [];
  private skeletonBytes = 0;
  private started = false;
  /** Whether the root object ended. */
  private done = false;
  /** Where, in the chunk being written, the skeleton not yet kept starts (-1: none of it is skeleton). */
  private skeletonFrom = -1;
  /** Where, in the chunk being written, the element being captured starts (-1: none is). */
  private captureFrom = -1;

  constructor(
    private readonly onElement: (element: ScannedElement) => void,
    private readonly maxElementBytes: number,
  ) {}

  /** Bytes of the element being captured (to bound memory). */
  get pendingBytes(): number {
    return this.capturing ? this.piecesBytes : 0;
  }

  /** Feeds the next chunk. Throws a ScanError for bytes that cannot be a HAR. */
  write(chunk: Buffer): void {
    this.skeletonFrom = this.splitting || this.capturing ? -1 : 0;
    this.captureFrom = this.capturing ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.capturing) {
        const end = this.scanCaptured(chunk, i);
        if (end < 0) break;
        this.pieces.push(chunk.subarray(this.captureFrom, end + 1));
        this.finishElement(this.offset + end);
        this.captureFrom = -1;
        i = end;
      } else if (this.inString) this.readStringByte(chunk[i]!);
      else if (!isSpace(chunk[i]!)) this.readStructureByte(chunk, i);
    }
    this.keepUnfinishedElement(chunk);
    if (this.skeletonFrom >= 0) this.addSkeleton(chunk.subarray(this.skeletonFrom), this.offset + chunk.length);
    this.offset += chunk.length;
  }

  /** A byte of a string outside the elements: only the skeleton's keys are read, so only a short string is kept. */
  private readStringByte(byte: number): void {
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      this.inString = false;
      if (this.stringBytes) this.lastString = Buffer.from(this.stringBytes).toString('utf8');
      this.stringBytes = undefined;
    } else if (this.stringBytes && this.stringBytes.length < 64) this.stringBytes.push(byte);
    else this.stringBytes = undefined;
  }

  /** A byte of JSON structure outside the elements: inside log.entries or log.pages it splits, elsewhere it is skeleton. */
  private readStructureByte(chunk: Buffer, i: number): void {
    const byte = chunk[i]!;
    const at = this.offset + i;
    this.checkRoot(byte, at);
    if (this.splitting) this.splitArray(byte, i, at);
    else this.readSkeletonByte(chunk, i, at);
  }

  /** Refuses data after the root object, and a file whose first value is not an object. */
  private checkRoot(byte: number, at: number): void {
    if (this.done)
      throw new ScanError(`not JSON: data after the end of the HAR (${JSON.stringify(String.fromCharCode(byte))})`, at);
    if (this.started) return;
    if (byte !== OPEN_OBJECT)
      throw new ScanError(
        byte === OPEN_ARRAY || byte === QUOTE || (byte >= 0x30 && byte <= 0x39)
          ? 'JSON that is not a HAR (not an object)'
          : 'not JSON',
        at,
      );
    this.started = true;
  }

  /** Inside log.entries or log.pages: the array's end, an element's start or the comma between two; nothing else. */
  private splitArray(byte: number, i: number, at: number): void {
    const array = this.splitting!;
    if (byte === CLOSE_ARRAY && (this.expectValue === false || this.counts[array] === 0)) {
      this.splitting = undefined;
      this.stack.pop();
      this.skeletonFrom = i;
    } else if (this.expectValue && byte === OPEN_OBJECT) {
      this.capturing = true;
      this.depth = 1;
      this.elementStart = at;
      this.pieces = [];
      this.piecesBytes = 0;
      this.captureFrom = i;
      this.expectValue = false;
    } else if (!this.expectValue && byte === COMMA) this.expectValue = true;
    else {
      const startsValue = /[[\]"0-9tfn-]/.test(String.fromCharCode(byte));
      throw new ScanError(
        this.expectValue && startsValue
          ? `${array === 'entries' ? 'entry' : 'page'} ${this.counts[array]} is not an object`
          : `not JSON: unexpected ${JSON.stringify(String.fromCharCode(byte))} in log.${array}`,
        at,
      );
    }
  }

  /** Follows the skeleton's keys and nesting; at log.entries or log.pages, keeps the skeleton so far and splits. */
  private readSkeletonByte(chunk: Buffer, i: number, at: number): void {
    const byte = chunk[i]!;
    if (byte === QUOTE) {
      this.inString = true;
      this.stringBytes = [];
    } else if (byte === COLON) this.pendingKey = this.lastString;
    else if (byte === COMMA) this.pendingKey = undefined;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      const key = this.pendingKey;
      this.pendingKey = undefined;
      const inLog = this.stack.length === 2 && this.stack[1]!.key === 'log' && this.stack[1]!.kind === OPEN_OBJECT;
      this.stack.push({ kind: byte, key });
      if (inLog && byte === OPEN_ARRAY && (key === 'entries' || key === 'pages')) {
        this.splitting = key;
        this.expectValue = true;
        this.addSkeleton(chunk.subarray(this.skeletonFrom, i + 1), at);
        this.skeletonFrom = -1;
      }
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      this.stack.pop();
      if (this.stack.length === 0) this.done = true;
    }
  }

  /** Keeps the bytes of an element this chunk began or continued but did not end, refusing one past the bound. */
  private keepUnfinishedElement(chunk: Buffer): void {
    if (this.captureFrom < 0 || !this.capturing) return;
    this.pieces.push(chunk.subarray(this.captureFrom));
    this.piecesBytes += chunk.length - this.captureFrom;
    if (this.piecesBytes > this.maxElementBytes)
      throw new ScanError(
        `spans more than ${this.maxElementBytes} bytes: not read (the limit keeps memory bounded)`,
        this.elementStart,
      );
  }

  /**
   * Scans a captured element from `from`, strings and nesting only, in local variables (the hot loop: nearly every
   * byte of a HAR is in an entry); returns the index of the byte that closes it, or -1 when the chunk ends first.
   */
  private scanCaptured(chunk: Buffer, from: number): number {
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    const n = chunk.length;
    let i = from;
    let closed = -1;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        let j = i;
        while (j < n) {
          const c = chunk[j]!;
          if (c === QUOTE || c === BACKSLASH) break;
          j++;
        }
        if (j >= n) break;
        if (chunk[j] === BACKSLASH) escaped = true;
        else inString = false;
        i = j + 1;
        continue;
      }
      const c = chunk[i]!;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) {
        closed = i;
        break;
      }
      i++;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return closed;
  }

  private finishElement(end: number): void {
    const array = this.splitting!;
    if (end + 1 - this.elementStart > this.maxElementBytes)
      throw new ScanError(
        `spans more than ${this.maxElementBytes} bytes: not read (the limit keeps memory bounded)`,
        this.elementStart,
      );
    const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    // A chunk held by the pieces is copied out: the element does not keep the whole chunk alive.
    this.onElement({
      array,
      index: this.counts[array]++,
      bytes: Buffer.from(bytes),
      start: this.elementStart,
      end: end + 1,
    });
    this.pieces = [];
    this.piecesBytes = 0;
    this.capturing = false;
  }

  private addSkeleton(bytes: Buffer, at: number): void {
    this.skeletonBytes += bytes.length;
    if (this.skeletonBytes > MAX_SKELETON)
      throw new ScanError(
        `more than ${MAX_SKELETON} bytes outside log.entries and log.pages: not a HAR this reader keeps`,
        at,
      );
    this.skeleton.push(Buffer.from(bytes));
  }

  /** Ends the scan: throws a ScanError when the file stopped mid-way or is not a HAR; returns the skeleton, parsed. */
  end(): Record<string, unknown> {
    if (!this.started) throw new ScanError('the file is empty, not a HAR', 0);
    if (!this.done || this.inString || this.capturing)
      throw new ScanError('the file ends in the middle of the JSON (truncated)', this.offset);
    let skeleton: unknown;
    try {
      skeleton = JSON.parse(Buffer.concat(this.skeleton).toString('utf8'));
    } catch {
      throw new ScanError('not JSON outside log.entries (a stray character or a missing comma)', 0);
    }
    return skeleton as Record<string, unknown>;
  }
}
