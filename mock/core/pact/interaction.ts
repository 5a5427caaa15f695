/**
 * One Pact V4 interaction from the first request of its kind: a readable
 * description, the provider states the mock's answer relied on, the request as
 * sent (the key replaced, the mock's own headers dropped) and the response cut
 * to the contract's schema with matching rules from it.
 * @see ../../../docs/mock.md "Consumer contracts (Pact)"
 */
import { type ForcedSource, headerValue, type RequestContext } from '../layers.ts';
import type { ApiResponse } from '../responses.ts';
import { requestJson } from './classify.ts';
import { type ProviderState, states } from './provider-states.ts';
import {
  componentSchema,
  exampleWithRules,
  type PactRuleCategory,
  resolveSchema,
  responseSchema,
} from './schema-rules.ts';

/** What an Authorization header's key is replaced with in a pact. */
const KEY_PLACEHOLDER = '<key>';

/** A Pact V4 body. */
export interface PactBody {
  content: unknown;
  contentType: string;
  encoded: false;
}

/** A Pact V4 HTTP interaction (`Synchronous/HTTP`). */
export interface PactInteraction {
  type: 'Synchronous/HTTP';
  description: string;
  providerStates?: ProviderState[];
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: PactBody;
    matchingRules?: { header?: PactRuleCategory; body?: PactRuleCategory };
  };
  response: {
    status: number;
    headers?: Record<string, string[]>;
    body?: PactBody;
    matchingRules?: { header?: PactRuleCategory; body?: PactRuleCategory };
  };
}

const rule = (regex: string): PactRuleCategory[string] => ({ combine: 'AND', matchers: [{ match: 'regex', regex }] });

/** RFC 9745 §2.1: a Structured Field Date, `@` and whole seconds. */
const DEPRECATION_REGEX = '^@-?[0-9]{1,15}$';
/** RFC 8594 §3 (RFC 9110 §5.6.7): an IMF-fixdate. */
const SUNSET_REGEX = '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';
const JSON_REGEX = '^application/json\\s*(;.*)?$';
const BEARER_REGEX = '^[Bb][Ee][Aa][Rr][Ee][Rr] \\S+$';

/** The readable description of a request of this kind. */
function describe(context: RequestContext, response: ApiResponse, forced?: number): string {
  const operationId = context.operation!.operationId;
  const query = new URLSearchParams(context.query);
  const names = [...new Set(query.keys())].sort();
  const parts: string[] = [];
  if (operationId === 'listPets') {
    const shown = names.map((n) => (n === 'status' ? `status=${query.get('status')}` : n));
    if (shown.length > 0) parts.push(`with ${list(shown)}`);
    if (response.status === 200 && response.body === '[]') parts.push('when there are none to list');
  } else if (operationId === 'createPet') {
    const body = requestJson(context);
    const sent = typeof body === 'object' && body !== null ? Object.keys(body) : [];
    const known = Object.keys(componentSchema('NewPet').properties as object);
    const missing = known.filter((n) => !sent.includes(n));
    const extra = sent.filter((n) => !known.includes(n));
    parts.push(missing.length === 0 ? 'with every field' : `without ${list(missing)}`);
    if (extra.length > 0) parts.push(`and also ${list(extra)}`);
  } else if (operationId === 'getPet' && forced === undefined) {
    if (response.status === 200) parts.push('for an existing id');
    if (response.status === 404) parts.push('for an unknown id');
  }
  if (headerValue(context.request, 'authorization') === undefined) parts.push('without a key');
  if (forced !== undefined) parts.push(`when the service answers ${forced}`);
  return [operationId, ...parts].join(' ');
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The interaction for the first request of a kind. */
export function buildInteraction(
  context: RequestContext,
  response: ApiResponse,
  forced?: ForcedSource,
): PactInteraction {
  const status = response.status;
  const operationId = context.operation!.operationId;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    parsed = undefined;
  }
  const providerStates = states(context, status, parsed, forced !== undefined);
  return {
    type: 'Synchronous/HTTP',
    description: describe(context, response, forced === undefined ? undefined : status),
    ...(providerStates.length > 0 ? { providerStates } : {}),
    request: requestOf(context),
    response: responseOf(operationId, response, parsed, context, forced !== undefined),
  };
}

function requestOf(context: RequestContext): PactInteraction['request'] {
  const request: PactInteraction['request'] = {
    method: context.request.method,
    // The path as the client sent it (`/v1/pets/7`, decoded), as pact-js consumer tests write theirs: a provider
    // verifies all its consumers' pacts against one base URL, its origin (verifiers drop a base URL's path).
    path: context.route?.path ?? context.path,
  };
  if (context.query !== '') {
    // A Map, then entries: a parameter named `__proto__` must stay a plain field, never reach the prototype.
    const query = new Map<string, string[]>();
    for (const [name, value] of new URLSearchParams(context.query))
      query.set(name, [...(query.get(name) ?? []), value]);
    request.query = Object.fromEntries(query);
  }
  const headers: Record<string, string[]> = {};
  const auth = headerValue(context.request, 'authorization');
  if (auth !== undefined) {
    headers.Authorization = [`Bearer ${KEY_PLACEHOLDER}`];
    request.matchingRules = { header: { Authorization: rule(BEARER_REGEX) } };
  }
  const body = requestJson(context);
  const contentType = headerValue(context.request, 'content-type');
  if (contentType !== undefined) headers['Content-Type'] = [contentType];
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (body !== undefined)
    request.body = { content: body, contentType: contentType ?? 'application/json', encoded: false };
  return request;
}

function responseOf(
  operationId: string,
  response: ApiResponse,
  parsed: unknown,
  context: RequestContext,
  forced: boolean,
): PactInteraction['response'] {
  const out: PactInteraction['response'] = { status: response.status };
  const headers: Record<string, string[]> = {};
  const headerRules: PactRuleCategory = {};
  const type = response.headers['content-type'];
  if (type !== undefined) {
    headers['Content-Type'] = [type];
    headerRules['Content-Type'] = rule(JSON_REGEX);
  }
  if (operationId === 'getPet' && response.status === 200 && !forced) {
    for (const [name, regex] of [
      ['Deprecation', DEPRECATION_REGEX],
      ['Sunset', SUNSET_REGEX],
    ] as const) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) continue;
      headers[name] = [value];
      headerRules[name] = rule(regex);
    }
  }
  if (Object.keys(headers).length > 0) out.headers = headers;
  const schema = (forced ? undefined : responseSchema(operationId, response.status)) ?? componentSchema('Error');
  if (parsed !== undefined) {
    const { example, rules } = exampleWithRules(trimmed(schema, operationId, context), parsed);
    out.body = { content: example, contentType: 'application/json', encoded: false };
    out.matchingRules = { body: rules };
  }
  if (Object.keys(headerRules).length > 0) out.matchingRules = { ...out.matchingRules, header: headerRules };
  return out;
}

/**
 * The response schema cut to what the provider must give whatever its data: a listing's items to the required
 * fields (plus `status` when filtered by it), since each listed pet must match and another provider's pets may
 * leave an optional field out; a created pet to the required fields and those the client sent.
 */
function trimmed(schema: Record<string, any>, operationId: string, context: RequestContext): Record<string, any> {
  const resolved = resolveSchema(schema);
  const listing = operationId === 'listPets' && resolved.type === 'array';
  const created = operationId === 'createPet' && resolved.type === 'object';
  if (!listing && !created) return schema;
  const item = listing ? resolveSchema(resolved.items) : resolved;
  const keep = new Set<string>(item.required ?? []);
  if (listing && new URLSearchParams(context.query).has('status')) keep.add('status');
  const body = created ? requestJson(context) : undefined;
  if (typeof body === 'object' && body !== null) for (const name of Object.keys(body)) keep.add(name);
  const properties = Object.fromEntries(Object.entries(item.properties ?? {}).filter(([n]) => keep.has(n)));
  const cut = { ...item, properties };
  return listing ? { type: 'array', items: cut } : cut;
}
