/**
 * What the generator reads from the spec's NewPet schema: its properties,
 * their JSON types, formats and enumerations, and which are required. Read
 * from the parsed document (loadSpec), so no field, type or value is re-typed here.
 * @see ../../docs/contract.md "Resources NewPet"
 */

import { loadSpec, type OpenApiDocument } from '../../spec/index.ts';
import { keepRawBytes } from '../client/bytes.ts';

/** One property of an object schema, with its `$ref` resolved. */
export interface PropertyInfo {
  name: string;
  type: 'string' | 'integer';
  required: boolean;
  format?: string;
  enum?: readonly string[];
}

/** The int64 range (`format: int64`). */
export const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;

function resolve(doc: OpenApiDocument, schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return resolve(doc, doc.components.schemas[name] as Record<string, unknown>);
}

/** The properties of the component schema `name` (NewPet by default), in the spec's order. */
export function schemaProperties(name = 'NewPet', doc: OpenApiDocument = loadSpec()): PropertyInfo[] {
  const schema = resolve(doc, doc.components.schemas[name] as Record<string, unknown>);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).map(([prop, raw]) => {
    const s = resolve(doc, raw);
    if (s.type !== 'string' && s.type !== 'integer')
      throw new Error(`the generator does not know schema type ${String(s.type)} (${name}.${prop})`);
    return {
      name: prop,
      type: s.type,
      required: required.has(prop),
      ...(typeof s.format === 'string' ? { format: s.format } : {}),
      ...(Array.isArray(s.enum) ? { enum: s.enum as string[] } : {}),
    };
  });
}

/** A generated body value: strings, integers as BigInt (so int64 stays exact), or other JSON. */
export type BodyValue = string | bigint | number | boolean | null | BodyValue[] | { [key: string]: BodyValue };

/** JSON text for a body value, writing each BigInt as its exact digits. */
export function toJsonText(value: BodyValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  // A name may hold bytes that are not UTF-8 (an invalid body): JSON.stringify would write them as \udcXY escapes.
  return keepRawBytes(JSON.stringify(value));
}
