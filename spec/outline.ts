/**
 * A component schema as one short line a failure can quote (`Error {code: string, message: string, status:
 * integer}`), read from the OpenAPI document, so a report says what was expected without retyping the contract.
 */
import { loadSpec, type OpenApiDocument, type SchemaName } from './index.ts';

type Schema = Record<string, any>;

function resolve(schema: Schema, doc: OpenApiDocument): Schema {
  const ref = schema.$ref;
  return typeof ref === 'string' ? (doc.components.schemas[ref.split('/').pop() ?? ''] ?? {}) : schema;
}

/** The properties and required names of an object schema, `allOf` merged. */
function objectParts(schema: Schema, doc: OpenApiDocument): { properties: [string, Schema][]; required: Set<string> } {
  const s = resolve(schema, doc);
  const parts = [s, ...((s.allOf as Schema[] | undefined) ?? []).map((part) => objectParts(part, doc))];
  const properties: [string, Schema][] = Object.entries((s.properties as Record<string, Schema> | undefined) ?? {});
  const required = new Set<string>((s.required as string[] | undefined) ?? []);
  for (const part of parts.slice(1) as { properties: [string, Schema][]; required: Set<string> }[]) {
    properties.push(...part.properties);
    for (const name of part.required) required.add(name);
  }
  return { properties, required };
}

function typeOf(schema: Schema, doc: OpenApiDocument): string {
  const s = resolve(schema, doc);
  if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `array of ${typeOf(s.items ?? {}, doc)}`;
  if (typeof schema.$ref === 'string' && s.type === 'object') return schema.$ref.split('/').pop() ?? 'object';
  return typeof s.type === 'string' ? s.type : 'object';
}

/** `name` as one line: its fields with their types (`?` for an optional one), or what it is an array of. */
export function schemaOutline(name: SchemaName, doc: OpenApiDocument = loadSpec()): string {
  const schema = doc.components.schemas[name] as Schema | undefined;
  if (!schema) return name;
  if (schema.type === 'array') {
    const item = (schema.items ?? {}) as Schema;
    const itemName = typeof item.$ref === 'string' ? (item.$ref.split('/').pop() as SchemaName) : undefined;
    return itemName ? `${name}: a JSON array of ${schemaOutline(itemName, doc)}` : `${name}: a JSON array`;
  }
  const { properties, required } = objectParts(schema, doc);
  if (properties.length === 0) return `${name}: ${typeOf(schema, doc)}`;
  // The contract's own field order reads best with the required fields first, as a body is written.
  const ordered = [...properties.filter(([n]) => required.has(n)), ...properties.filter(([n]) => !required.has(n))];
  const fields = ordered.map(([field, s]) => `${field}${required.has(field) ? '' : '?'}: ${typeOf(s, doc)}`);
  return `${name} {${fields.join(', ')}}`;
}
