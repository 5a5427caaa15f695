/**
 * Bytes that are not UTF-8, carried in the suite's strings the way Python's `surrogateescape` carries them: the
 * byte 0xXY (0x80 to 0xFF) is the lone surrogate U+DCXY, which no UTF-8 text holds. A case or a generated value
 * writes such a byte into a body, a query value or a path segment; the client sends the byte itself, and a curl
 * line shows it as `\xXY` inside `$'…'`, so it sends the same bytes.
 */

/** A lone U+DC80..U+DCFF (not the second half of a surrogate pair). */
const RAW = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const RAW_ALL = new RegExp(RAW.source, 'g');

/** The string that stands for these bytes (each 0x80 to 0xFF), sent as they are. */
export function rawBytes(...bytes: number[]): string {
  return String.fromCharCode(...bytes.map((b) => 0xdc00 + b));
}

/** Whether the text holds a byte that is not UTF-8. */
export function hasRawBytes(text: string): boolean {
  return RAW.test(text);
}

/** The bytes the text stands for: UTF-8, with each raw byte as itself. */
export function toBytes(text: string): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(RAW_ALL)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.of(m[0].charCodeAt(0) - 0xdc00));
    last = m.index + 1;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

/** What goes on the wire for a body: the text, or its bytes when it holds bytes that are not UTF-8. */
export function wireBody(text: string | undefined): string | Buffer | undefined {
  return text !== undefined && hasRawBytes(text) ? toBytes(text) : text;
}

/** `encodeURIComponent`, with each raw byte as its own `%XY` (a lone surrogate would make it throw). */
export function percentEncode(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(RAW_ALL)) {
    const hex = (m[0].charCodeAt(0) - 0xdc00).toString(16).toUpperCase();
    out += `${encodeURIComponent(text.slice(last, m.index))}%${hex}`;
    last = m.index + 1;
  }
  return out + encodeURIComponent(text.slice(last));
}

/** Quotes text that holds raw bytes for bash, zsh and ksh (`$'…'`): each raw byte and control byte as `\xXY`. */
export function ansiCQuote(text: string): string {
  let out = '';
  for (const b of toBytes(text)) {
    if (b === 0x5c || b === 0x27) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b === 0x7f || b >= 0x80) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `$'${out}'`;
}

/** JSON text as `JSON.stringify` writes it, with each raw byte put back as itself (it writes `\udcXY`). */
export function keepRawBytes(json: string): string {
  return json.replace(/(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])/g, (_m, slashes: string, hex: string) =>
    slashes.concat(String.fromCharCode(0xdc00 + Number.parseInt(hex, 16))),
  );
}
