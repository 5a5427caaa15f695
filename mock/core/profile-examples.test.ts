/**
 * The profile the mock serves (GET /__control/openapi.json) is safe to run
 * tools against: no example in it, and no value its parameter schemas admit,
 * makes the mock answer an error. Schemathesis, pointed at today's profile
 * before this test, reported three "Server error" findings, each from the
 * Prefer example `code=503, delay=2000`.
 */
import fc from 'fast-check';
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
  const response = await mock.handle({
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

describe("the Prefer parameter's schema", () => {
  const prefer = resolve<Parameter>(profile.components.parameters.Prefer);

  it('admits only preferences that never force an error: no code=, no fault=, no long delay', () => {
    const pattern = new RegExp(prefer.schema!.pattern!);
    for (const forcing of ['code=503', 'code=503, delay=2000', 'fault=hang', 'delay=2000', 'delay=100, code=500'])
      expect(pattern.test(forcing), forcing).toBe(false);
    expect(prefer.example).toBe('delay=100');
  });

  it('every value it admits gets the same success as no Prefer at all, on every operation', async () => {
    const pattern = new RegExp(prefer.schema!.pattern!);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(pattern), fc.constantFrom(...operations()), async (value, op) => {
        // Delays are real time: cut them to 0 here, as the schema's bound (under a second) is what is under test.
        const fast = value.replace(/delay=[0-9]+/g, 'delay=0');
        const response = await send(op.method, op.path, { prefer: fast }, op.body ? NEW_PET : undefined);
        expect(response.status, `Prefer: ${value}`).toBeLessThan(400);
        expect(response.headers['preference-applied'] ?? '').not.toMatch(/code|fault/);
      }),
      { numRuns: 200 },
    );
  });
});
