/**
 * The profile the mock serves (GET /__control/openapi.json) says what the mock
 * does, no more: no example in it makes the mock answer an error (Schemathesis
 * once reported three "Server error" findings from the Prefer example
 * `code=503, delay=2000`), and every constraint it declares on a parameter is
 * one the mock enforces with a 400 Error (Schemathesis 4.25 reported "API
 * accepted schema-violating request" for an empty Prefer, which the profile's
 * pattern refused and the mock, rightly, took).
 */
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../spec/index.ts';
import { createMock } from './mock.ts';

const KEY = 'profile-key';
const profile = loadProfile() as any;

interface Parameter {
  name: string;
  in: string;
  schema?: { pattern?: string; $ref?: string };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** A `$ref` inside the profile, resolved. */
function resolve<T>(node: T | { $ref: string }): T {
  if (typeof node !== 'object' || node === null || !('$ref' in node)) return node as T;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: any, key) => at[key], profile) as T;
}

/** Every operation with its resolved parameters and request body schema. */
function operations() {
  return Object.entries(profile.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.responses)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        parameters: ((op.parameters ?? []) as unknown[]).map((p) => resolve<Parameter>(p as Parameter)),
        body: op.requestBody?.content?.['application/json']?.schema,
      })),
  );
}

/** The examples given for a parameter or schema, wherever the document puts them. */
function examplesOf(node: { example?: unknown; examples?: unknown } | undefined): unknown[] {
  if (!node) return [];
  const out: unknown[] = [];
  if (node.example !== undefined) out.push(node.example);
  if (Array.isArray(node.examples)) out.push(...node.examples);
  else if (node.examples && typeof node.examples === 'object')
    out.push(...Object.values(node.examples as Record<string, { value: unknown }>).map((e) => e.value));
  return out;
}

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const mock = createMock({ apiKeys: [KEY] });
  const json = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
  const response = await mock.fetch({
    method,
    url: `/v1${path.replace('{petId}', '1')}`,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(json ? { body: json } : {}),
  });
  return response;
}

const NEW_PET = { name: 'Rex', categoryId: 3 };

describe("the profile's examples", () => {
  it('has examples to check (the Prefer parameter among them)', () => {
    const all = operations().flatMap((op) => op.parameters.flatMap((p) => examplesOf(p)));
    expect(all.length).toBeGreaterThan(0);
  });

  it.each(operations().map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: every parameter and body example gets a success',
    async (_name, op) => {
      const body = op.body === undefined ? undefined : NEW_PET;
      for (const parameter of op.parameters)
        for (const example of examplesOf(parameter)) {
          const value = String(example);
          const response =
            parameter.in === 'header'
              ? await send(op.method, op.path, { [parameter.name.toLowerCase()]: value }, body)
              : parameter.in === 'query'
                ? await send(op.method, `${op.path}?${parameter.name}=${encodeURIComponent(value)}`, {}, body)
                : await send(op.method, op.path.replace(`{${parameter.name}}`, value), {}, body);
          expect(response.status, `${parameter.name}: ${value}`).toBeLessThan(400);
        }
      const schema = op.body && resolve<{ examples?: unknown[] }>(op.body);
      for (const example of examplesOf(schema)) {
        const response = await send(op.method, op.path, {}, example);
        expect(response.status, JSON.stringify(example)).toBeLessThan(400);
      }
    },
  );
});

/** A parameter's schema, `$ref`s resolved; the keywords the walk below knows how to step outside of. */
interface ParameterSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  [keyword: string]: unknown;
}

/** Keywords that constrain nothing a request can break. */
const NOT_CONSTRAINTS = new Set(['default', 'description', 'example', 'examples', 'title']);

/** Values outside `schema`, one per constraint it declares, as a request carries them (text). */
function outside(schema: ParameterSchema, where: string): string[] {
  const out: string[] = [];
  for (const keyword of Object.keys(schema)) {
    if (NOT_CONSTRAINTS.has(keyword)) continue;
    if (keyword === 'type' && schema.type === 'integer') out.push('abc', '1.5', ...(where === 'path' ? [] : ['']));
    else if (keyword === 'type' && schema.type === 'string') continue;
    else if (keyword === 'minimum') out.push(String(schema.minimum! - 1));
    else if (keyword === 'maximum') out.push(String(schema.maximum! + 1));
    else if (keyword === 'format' && schema.format === 'int64') out.push('9223372036854775808', '-9223372036854775809');
    else if (keyword === 'enum') out.push('not-one-of-them');
    else if (keyword === 'pattern') {
      const pattern = new RegExp(schema.pattern!, 'u');
      out.push(...['', ' ', 'x', '0', '%', 'a,b'].filter((v) => !pattern.test(v)).slice(0, 2));
    }
    // A constraint this walk cannot step outside of would pass unchecked: fail instead, so it gets a case.
    else throw new Error(`no way to step outside "${keyword}: ${JSON.stringify(schema[keyword])}" yet`);
  }
  return out;
}

describe('the profile declares only what the mock refuses', () => {
  const cases = operations().flatMap((op) =>
    op.parameters.flatMap((p) => {
      const schema = resolve<ParameterSchema>((p.schema ?? {}) as ParameterSchema);
      return outside(schema, p.in).map(
        (value) => [`${op.method} ${op.path} ${p.in} ${p.name}=${JSON.stringify(value)}`, op, p, value] as const,
      );
    }),
  );

  it('has constraints to check: limit, status and petId', () => {
    const named = new Set(cases.map(([, , p]) => p.name));
    expect([...named].sort()).toEqual(['limit', 'petId', 'status']);
  });

  it.each(cases)('%s: refused with a 400 Error', async (_name, op, parameter, value) => {
    const body = op.body ? NEW_PET : undefined;
    const response =
      parameter.in === 'header'
        ? await send(op.method, op.path, { [parameter.name.toLowerCase()]: value }, body)
        : parameter.in === 'query'
          ? await send(op.method, `${op.path}?${parameter.name}=${encodeURIComponent(value)}`, {}, body)
          : await send(op.method, op.path.replace(`{${parameter.name}}`, encodeURIComponent(value)), {}, body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ status: 400 });
  });

  it('declares Prefer without a pattern: the mock ignores what it does not know (RFC 7240), an empty value too', async () => {
    const prefer = resolve<Parameter>(profile.components.parameters.Prefer);
    expect(prefer.schema).toEqual({ type: 'string' });
    for (const value of ['', 'return=minimal', 'x-unknown=1', 'delay=0'])
      expect((await send('GET', '/pets', { prefer: value })).status, `Prefer: ${value}`).toBe(200);
  });
});
