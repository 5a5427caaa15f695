/**
 * The fake Petstore's ordinary-decoder violations (issue 45): how the JSON decoders, query parsers, routers and
 * integer parsers of other stacks read what the contract forbids. Each is a hook the operations call; without its
 * violation it changes nothing.
 */
import { error, type FakeRequest, type FakeResult, type FakeState } from './fake-model.ts';

const INT64_MAX = 2n ** 63n - 1n;

/**
 * The first JSON value of a text and nothing after it, as a streaming decoder reads it (Go's `json.Decoder`):
 * the text up to the end of its first object, or the whole text when it is not an object.
 */
function firstValue(text: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && --depth === 0) return text.slice(0, i + 1);
  }
  return text;
}

/** The body text the fake's decoder parses: the first value only, under `firstValueDecoder`. */
export function decodedText(s: FakeState, body: string): string {
  return s.broken.has('firstValueDecoder') ? firstValue(body) : body;
}

/**
 * The parsed body as the fake's decoder hands it over: member names matched in any case (Jackson's
 * ACCEPT_CASE_INSENSITIVE_PROPERTIES, Go's encoding/json), a `status: true` taken as a valid status (a loose
 * `==` against the enumeration), an integer beyond int64 saturated to its largest value.
 */
export function decodedBody(s: FakeState, body: unknown, text: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  let out = body as Record<string, unknown>;
  if (s.broken.has('caseInsensitiveMembers')) {
    const byLower = new Map(['name', 'categoryId', 'status'].map((k) => [k.toLowerCase(), k]));
    out = Object.fromEntries(Object.entries(out).map(([k, v]) => [byLower.get(k.toLowerCase()) ?? k, v]));
  }
  if (s.broken.has('saturatingIds')) {
    const digits = /"categoryId"\s*:\s*(-?\d+)(?![\d.eE])/.exec(text)?.[1];
    if (digits !== undefined && BigInt(digits) > INT64_MAX) out = { ...out, categoryId: INT64_MAX };
  }
  return out;
}

/** Whether a status value passes the fake's enumeration check: `true` does under `looseEnumStatus`. */
export function looseStatusAccepted(s: FakeState, status: unknown): boolean {
  return s.broken.has('looseEnumStatus') && status === true;
}

/** A listing answered by a query parser's violation before any work, or undefined. */
export function queryParserResponse(s: FakeState, rawQuery: string): FakeResult | undefined {
  if (s.broken.has('arrayQuery500') && /(?:^|&)(?:limit|status)\[\]=/.test(rawQuery))
    return error(s, 500, 'internal', 'TypeError: value.trim is not a function');
  if (s.broken.has('badEscapeHtml400') && /%(?![0-9A-Fa-f]{2})/.test(rawQuery))
    return { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>400 Bad Request</h1>' };
  return undefined;
}

/** The query as the queryNotDecoded violation reads it (split by hand, never decoded), or undefined. */
export function bugQuery(s: FakeState, rawQuery: string): URLSearchParams | undefined {
  if (!s.broken.has('queryNotDecoded')) return undefined;
  const params = new URLSearchParams();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    params.append(at === -1 ? pair : pair.slice(0, at), at === -1 ? '' : pair.slice(at + 1));
  }
  return params;
}

/** The petId text a violation's integer parse turns the segment into (`1abc` to `1`, 2^63 to 2^63 - 1). */
export function parsedIdText(s: FakeState, idText: string): string {
  // Python's int(): a digit separator between digits is dropped (`2_1` is 21).
  if (s.broken.has('underscoreIdParse') && /^\d+(_\d+)+$/.test(idText))
    return String(BigInt(idText.replaceAll('_', '')));
  if (s.broken.has('lenientIdParse')) {
    const n = Number.parseInt(idText, 10);
    return Number.isNaN(n) ? idText : String(n);
  }
  if (s.broken.has('saturatingIds') && /^\d+$/.test(idText) && BigInt(idText) > INT64_MAX) return String(INT64_MAX);
  return idText;
}

/** A router's own HTML 404 for a petId that is not digits, before any handler or key check (`routerHtml404`). */
export function routerPage(s: FakeState, req: FakeRequest, pathname: string): FakeResult | undefined {
  if (!s.broken.has('routerHtml404') || req.method !== 'GET' || !/^\/v1\/pets\/[^/]*\D[^/]*$/.test(pathname))
    return undefined;
  // A request id in the page, as Mojolicious writes one: the same page to every key, never the same bytes twice.
  const requestId = Math.random().toString(36).slice(2, 10).padEnd(8, '0').replace(/^\D/, '7');
  return {
    status: 404,
    headers: { 'content-type': 'text/html' },
    body: `<html><!-- Request ID: ${requestId} --><body>Not Found</body></html>`,
  };
}
