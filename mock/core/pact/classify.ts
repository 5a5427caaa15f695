/**
 * What one answered API request means to a consumer contract: an interaction
 * of a kind (operation, status, the request's shape that matters), a request
 * left out and why, or an answer a test forced. Cheap for a kind already seen:
 * the key is made from the request's shape, the rest only for a new kind.
 * @see ../../../docs/mock.md "Consumer contracts (Pact)"
 */
import { type ForcedSource, forcedBy, type RequestContext } from '../layers.ts';
import { TextMemo } from '../memo.ts';
import type { ApiResponse } from '../responses.ts';

/** The largest request body a pact keeps (64 KiB); a larger one is left out and named. */
const MAX_PACT_BODY = 64 * 1024;

/**
 * What tells one kind of interaction from another: the operation, the status with whether a key was sent and
 * whether the listing was empty (`status * 4 + auth * 2 + empty`), the query's shape, the body's shape, and who
 * forced the answer (`''` for nobody). Every string here is one made once (a constant, or a shape remembered), so
 * finding a kind again hashes nothing new.
 */
export type KindParts = readonly [operationId: string, answer: number, query: string, body: string, forced: string];

/** What one request is to a pact. */
type PactClass =
  | { kind: 'interaction'; parts: KindParts; forced?: ForcedSource }
  | { kind: 'skipped'; key: string; reason: string }
  | { kind: 'ignored' };

/** Shapes of the raw queries seen last: a client sends the same few again and again. */
const shapes = new TextMemo<string>(1000, 1024);

/** The query parameter names sent, sorted, with listPets' status value (it decides the provider state). */
function queryShape(raw: string): string {
  const known = shapes.get(raw);
  if (known !== undefined) return known;
  const query = new URLSearchParams(raw);
  const names = [...new Set(query.keys())].sort();
  const shape = names.map((n) => (n === 'status' ? `status=${query.get('status')}` : n)).join('&');
  return shapes.keep(raw, shape);
}

/** NewPet's fields, each a bit of a body's shape, and the shape of each set of them: made once, not per request. */
const FIELD_BITS = new Map([
  ['categoryId', 1],
  ['name', 2],
  ['status', 4],
]);
const SHAPES = Array.from({ length: 8 }, (_, set) => [...FIELD_BITS.keys()].filter((_, i) => set & (1 << i)).join(','));

/** The body's field names, sorted; `-` for no body, `?` for one that is not a JSON object. */
function bodyShape(body: unknown): string {
  if (body === undefined) return '-';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return '?';
  // A NewPet's fields are a set of three: its shape is one lookup; any other field, the names sorted and joined.
  let set = 0;
  for (const name of Object.keys(body)) {
    const bit = FIELD_BITS.get(name);
    if (bit === undefined) return Object.keys(body).sort().join(',');
    set |= bit;
  }
  return SHAPES[set]!;
}

/** Shapes of the create bodies seen last, by their text (a shape is a function of the text): a client sends the same few again and again. */
const bodyShapes = new TextMemo<string>(64, 1024);

/** {@link bodyShape} of a create's body, remembered by its text (the handler leaves a create's body decoded). */
function createShape(context: RequestContext): string {
  const text = context.request.body;
  if (typeof text !== 'string') return bodyShape(requestJson(context));
  return bodyShapes.get(text) ?? bodyShapes.keep(text, bodyShape(requestJson(context)));
}

/** The request body as JSON, undefined when there is none, a string when it does not parse. */
export function requestJson(context: RequestContext): unknown {
  const { body } = context.request;
  if (body === undefined || body.length === 0) return undefined;
  // The create's handler parsed it already.
  if (context.request.json !== undefined) return context.request.json;
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Classifies one answered API request. */
export function classify(context: RequestContext, response: ApiResponse, removed?: ReadonlySet<string>): PactClass {
  if (context.request.method === 'OPTIONS') return { kind: 'ignored' };
  const operationId = context.operation?.operationId;
  const forced = forcedBy(context);
  const status = response.status;
  // Read by its name, not through headerValue: one property load where the name is known, and sent at all is all it asks.
  const auth = context.request.headers.authorization !== undefined;
  if (operationId === undefined || removed?.has(operationId))
    return forced
      ? { kind: 'ignored' }
      : {
          kind: 'skipped',
          key: `${context.request.method}: no operation`,
          reason: 'an unknown route or method: the contract has no such operation',
        };
  if (context.request.method === 'HEAD')
    return { kind: 'skipped', key: `${operationId} HEAD`, reason: 'HEAD is not an operation of the contract' };
  const fault = context.override?.fault ?? response.fault;
  if (fault !== undefined && fault !== 'truncated')
    return forced
      ? {
          kind: 'skipped',
          key: `${operationId} fault=${fault}`,
          reason: 'a transport fault cannot be written in a pact',
        }
      : { kind: 'ignored' };
  const size = context.request.body?.length ?? 0;
  if (size > MAX_PACT_BODY)
    return { kind: 'skipped', key: `${operationId} body over ${MAX_PACT_BODY} bytes`, reason: 'too large to keep' };
  const query = context.query === '' ? '' : queryShape(context.query);
  const body = operationId === 'createPet' ? createShape(context) : '';
  const empty = operationId === 'listPets' && status === 200 && response.body === '[]';
  const parts: KindParts = [operationId, status * 4 + (auth ? 2 : 0) + (empty ? 1 : 0), query, body, forced ?? ''];
  if (forced) return { kind: 'interaction', parts, forced };
  if (status === 401 && auth)
    return {
      kind: 'skipped',
      key: `${operationId} 401 with a key the mock does not accept`,
      reason:
        'a key the mock does not accept: the verification puts the provider’s real key in every request that carries one',
    };
  if (status >= 400 && !(status === 401 || (operationId === 'getPet' && status === 404)))
    return {
      kind: 'skipped',
      key: `${operationId} ${status}: ${ruleOf(response.body)}`,
      reason:
        status >= 500
          ? 'a failure of the mock, not part of the contract'
          : 'a request the contract refuses: a consumer contract must not ask a provider to answer it one way',
    };
  return { kind: 'interaction', parts };
}

/** The rule an Error's message states, without the value the client sent (`..., got "0"`), so one rule is one kind. */
function ruleOf(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return String(message ?? '')
      .replace(/,? got .*$/s, '')
      .replace(/ \(got [^)]*\)$/, '')
      .replace(/ (at|in JSON at) position \d+.*$/s, '')
      .slice(0, 200);
  } catch {
    return 'not an Error body';
  }
}
