/**
 * The contract, as generated from `petstore.openapi.yaml` at build time: the
 * parsed document, ajv's standalone validators for its component schemas, the
 * TypeScript types, and the list of its operations. Nothing else in the project
 * re-types the schemas, and nothing here parses YAML or compiles a schema.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { document } from './generated/document.ts';
import { profile } from './generated/profile.ts';
import type { components } from './generated/types.ts';
import { validators } from './generated/validators.ts';
import type { OpenApiDocument } from './openapi-document.ts';

export type { components, operations, paths } from './generated/types.ts';
export type { OpenApiDocument } from './openapi-document.ts';

/** A pet as returned by the service (generated from the spec). */
export type Pet = components['schemas']['Pet'];
/** The request body of createPet (generated from the spec). */
export type NewPet = components['schemas']['NewPet'];
/** One of `available`, `pending`, `sold` (generated from the spec). */
export type PetStatus = components['schemas']['PetStatus'];
/** Names of the spec's component schemas. */
export type SchemaName = keyof components['schemas'];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the spec, flattened: what the suite covers and the mock routes. */
export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  deprecated: boolean;
  /** Documented response statuses, as numbers, ascending. */
  statuses: number[];
  /** Extension fields (`x-*`) of the operation. */
  extensions: Record<string, unknown>;
  /** The operation's tags (`pets`), as the document lists them. */
  tags: string[];
}

/** The parsed OpenAPI document, the same object every time (treat it as read-only). */
export function loadSpec(): OpenApiDocument {
  return document;
}

/**
 * The mock's OpenAPI profile: the contract with spec/mock.overlay.yaml applied
 * (the statuses, headers, bounds and examples the mock adds), the same object
 * every time (treat it as read-only). Check servers against the contract, not this.
 */
export function loadProfile(): OpenApiDocument {
  return profile;
}

/** Lists every operation in the spec with its documented response statuses. */
export function listOperations(doc: OpenApiDocument = loadSpec()): OperationInfo[] {
  const result: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const extensions = Object.fromEntries(Object.entries(op).filter(([k]) => k.startsWith('x-')));
      result.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        deprecated: op.deprecated === true,
        statuses: Object.keys(op.responses)
          .map(Number)
          .sort((a, b) => a - b),
        extensions,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
      });
    }
  }
  return result;
}

/** The PetStatus enumeration, in the spec's order. */
export function petStatuses(doc: OpenApiDocument = loadSpec()): readonly PetStatus[] {
  return doc.components.schemas.PetStatus.enum as PetStatus[];
}

/** The removal date of a deprecated operation (its `x-sunset`, a date at 00:00 UTC), or undefined when it has none. */
export function sunsetOf(operationId: string, doc: OpenApiDocument = loadSpec()): Date | undefined {
  const sunset = listOperations(doc).find((op) => op.operationId === operationId)?.extensions['x-sunset'];
  return typeof sunset === 'string' ? new Date(`${sunset}T00:00:00Z`) : undefined;
}

/** Bounds and default of listPets' `limit` query parameter, as the spec documents them. */
export interface LimitBounds {
  minimum: number;
  maximum: number;
  default: number;
}

/** Reads listPets' `limit` bounds from the spec. */
export function listPetsLimit(doc: OpenApiDocument = loadSpec()): LimitBounds {
  const params = doc.paths['/pets']!.get.parameters as { name: string; schema: LimitBounds }[];
  const { minimum, maximum, default: fallback } = params.find((p) => p.name === 'limit')!.schema;
  return { minimum, maximum, default: fallback };
}

/** Options for validator lookup. */
export interface ValidatorOptions {
  /** Reject properties the schema does not name (for Pet and Pets; `--strict` in the suite). */
  closed?: boolean;
}

const generated = validators as unknown as Record<string, [open: ValidateFunction, closed: ValidateFunction]>;

/** Errors an array's item-wise validation collects before it stops: the verdict is already known. */
export const MAX_SCHEMA_ERRORS = 100;

/**
 * An array schema's validator that checks item by item with the item schema's own validator. ajv's code for
 * `items: { $ref }` with allErrors concatenates each item's errors onto all before (`vErrors.concat`), which is
 * quadratic: a 1 MiB answer of 350,000 `{}` took minutes. This one is linear and stops after
 * {@link MAX_SCHEMA_ERRORS} errors; anything that is not an array goes to ajv's own validator.
 */
function itemWise(whole: ValidateFunction, item: ValidateFunction, closed: boolean): ValidateFunction {
  // The closed array schema inlines its items' `unevaluatedProperties: false` (the rest comes through the item's
  // $ref, with the item's own paths), so that one keyword's path is under items/: the errors stay ajv's own.
  const schemaPath = (path: string): string =>
    closed && path === '#/unevaluatedProperties' ? '#/items/unevaluatedProperties' : path;
  const validate = ((data: unknown) => {
    if (!Array.isArray(data)) {
      const ok = whole(data);
      validate.errors = whole.errors ?? null;
      return ok;
    }
    let errors: ErrorObject[] | null = null;
    for (let i = 0; i < data.length && (errors?.length ?? 0) < MAX_SCHEMA_ERRORS; i++) {
      if (item(data[i])) continue;
      errors ??= [];
      for (const e of item.errors ?? [])
        errors.push({ ...e, instancePath: `/${i}${e.instancePath}`, schemaPath: schemaPath(e.schemaPath) });
    }
    validate.errors = errors;
    return errors === null;
  }) as ValidateFunction;
  return Object.assign(validate, { schema: whole.schema, schemaEnv: whole.schemaEnv });
}

/** Component schemas that are an array of another component: `Pets` → `Pet`, read from the spec. */
function itemSchemaOf(name: string): string | undefined {
  const schema = (document as { components: { schemas: Record<string, { type?: string; items?: { $ref?: string } }> } })
    .components.schemas[name];
  const ref = schema?.type === 'array' ? schema.items?.$ref : undefined;
  return ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
}

/** The validators getValidator serves, open and closed, made once: an array of components checked item-wise. */
const served: Record<string, [open: ValidateFunction, closed: ValidateFunction]> = Object.fromEntries(
  Object.entries(generated).map(([name, [open, closed]]) => {
    const item = itemSchemaOf(name);
    if (item === undefined || !Object.hasOwn(generated, item)) return [name, [open, closed]];
    const [itemOpen, itemClosed] = generated[item]!;
    return [name, [itemWise(open, itemOpen, false), itemWise(closed, itemClosed, true)]];
  }),
);

/** Returns the validator ajv generated for a component schema, open or closed (an array of components item-wise). */
export function getValidator(name: SchemaName, options: ValidatorOptions = {}): ValidateFunction {
  if (!Object.hasOwn(served, name)) throw new Error(`spec has no schema named ${name}`);
  return served[name]![options.closed === true ? 1 : 0];
}

/** Formats ajv errors as `instancePath message` lines, for error bodies and reports. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? '(root)' : e.instancePath;
    const extra =
      e.keyword === 'enum' ? `: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : '';
    const params = e.params as { missingProperty?: string; unevaluatedProperty?: string };
    const prop = params.missingProperty ?? params.unevaluatedProperty;
    const named = prop === undefined ? '' : ` (${prop})`;
    return `${where} ${e.message ?? e.keyword}${extra}${named}`;
  });
}
