/**
 * JSON for the fake Petstore that can keep integers beyond 2^53 exactly, as a
 * server storing int64 would: they are read as BigInt and written back digit for digit.
 */

const MARK = '\u0000bigint:';
/** A string token, or a number token: strings are matched first, so digits inside them are never touched. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** JSON.parse, except that an integer a double cannot hold exactly becomes a BigInt. */
export function parseKeepingBigInts(text: string): unknown {
  const marked = text.replace(TOKEN, (t) =>
    /^-?\d+$/.test(t) && !Number.isSafeInteger(Number(t)) ? JSON.stringify(MARK + t) : t,
  );
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  );
}

/** A number kept as the JSON text it was sent as (a decimal column): written back as that text. */
export class RawNumber {
  constructor(readonly text: string) {}
}

const RAW = '\u0000raw:';

/** JSON.stringify, writing each BigInt as its exact digits and each {@link RawNumber} as its text. */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? MARK + v.toString() : v instanceof RawNumber ? RAW + v.text : v,
  );
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1').replace(/"\\u0000raw:([-+.0-9eE]+)"/g, '$1');
}
