/**
 * Pact matching rules read from the contract's schemas (spec/petstore.openapi.yaml), never retyped: integers
 * match as integers, enumerations by a regex of their values, other leaves by type, arrays as "each like" their
 * first item. The example a pact carries is the answer cut to the schema's fields, so every value it holds is
 * covered by a rule and none is pinned.
 * @see https://github.com/pact-foundation/pact-specification/tree/version-4
 */
import { loadSpec, type SchemaName } from '../../../spec/index.ts';

/** One Pact matcher (V4), as it appears in a `matchingRules` list. */
export type PactMatcher =
  | { match: 'type'; min?: number }
  | { match: 'integer' }
  | { match: 'decimal' }
  | { match: 'number' }
  | { match: 'boolean' }
  | { match: 'regex'; regex: string };

/** A category of matching rules (`body`, `header`): a path or name, and its matchers. */
export type PactRuleCategory = Record<string, { combine: 'AND'; matchers: PactMatcher[] }>;

/** A JSON schema as the contract writes it, loosely typed. */
type Schema = Record<string, any>;

/** The schema with `$ref` followed and `allOf` merged (properties and required lists). */
export function resolveSchema(schema: Schema): Schema {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(loadSpec().components.schemas[name] as Schema);
  }
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = (schema.allOf as Schema[]).map(resolveSchema);
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
  };
}

/** A named component schema, resolved. */
export function componentSchema(name: SchemaName): Schema {
  return resolveSchema({ $ref: `#/components/schemas/${name}` });
}

/** The regex matching exactly one of an enumeration's values. */
function enumRegex(values: readonly unknown[]): string {
  return `^(${values.map((v) => String(v).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}

function leafMatcher(schema: Schema): PactMatcher {
  if (Array.isArray(schema.enum)) return { match: 'regex', regex: enumRegex(schema.enum) };
  if (schema.type === 'integer') return { match: 'integer' };
  if (schema.type === 'number') return { match: 'number' };
  if (schema.type === 'boolean') return { match: 'boolean' };
  return { match: 'type' };
}

/**
 * `value` cut to what `schema` describes (fields it does not name are dropped; an array keeps its first item),
 * and the body rules that match it by the schema: what a pact's response carries.
 */
export function exampleWithRules(schema: Schema, value: unknown): { example: unknown; rules: PactRuleCategory } {
  const rules: PactRuleCategory = {};
  const example = walk(resolveSchema(schema), value, '$', rules);
  return { example, rules };
}

function walk(schema: Schema, value: unknown, path: string, rules: PactRuleCategory): unknown {
  const add = (matcher: PactMatcher) => {
    rules[path] = { combine: 'AND', matchers: [matcher] };
  };
  if (schema.type === 'array' && Array.isArray(value)) {
    if (value.length === 0) return [];
    add({ match: 'type', min: 1 });
    return [walk(resolveSchema(schema.items as Schema), value[0], `${path}[*]`, rules)];
  }
  if (schema.type === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      if (!Object.hasOwn(value, name)) continue;
      out[name] = walk(resolveSchema(field), (value as Record<string, unknown>)[name], `${path}.${name}`, rules);
    }
    return out;
  }
  add(leafMatcher(schema));
  return value;
}

/** The schema of an operation's response body for a status in the contract, or undefined when it documents none. */
export function responseSchema(operationId: string, status: number): Schema | undefined {
  for (const item of Object.values(loadSpec().paths))
    for (const op of Object.values(item) as Schema[]) {
      if (op?.operationId !== operationId) continue;
      let response = op.responses?.[String(status)] as Schema | undefined;
      if (typeof response?.$ref === 'string')
        response = loadSpec().components.responses[response.$ref.replace('#/components/responses/', '')];
      return response?.content?.['application/json']?.schema as Schema | undefined;
    }
  return undefined;
}
