/**
 * The contract, loaded once from `petstore.openapi.yaml`: the parsed document,
 * ajv validators for its component schemas, and the list of its operations.
 * Nothing else in the project re-types the schemas.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { readSpecDocument } from './document.ts';
import type { components } from './petstore.types.ts';
import { compileValidator } from './validators.ts';

export type { components, operations, paths } from './petstore.types.ts';

/** A pet as returned by the service (generated from the spec). */
export type Pet = components['schemas']['Pet'];
/** The request body of createPet (generated from the spec). */
export type NewPet = components['schemas']['NewPet'];
/** One of `available`, `pending`, `sold` (generated from the spec). */
export type PetStatus = components['schemas']['PetStatus'];
/** The Error body every documented error carries (generated from the spec). */
export type ApiError = components['schemas']['Error'];
/** Names of the spec's component schemas. */
export type SchemaName = keyof components['schemas'];

export { SPEC_PATH } from './document.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Loosely typed view of the parsed OpenAPI document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: { url: string; description?: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; [key: string]: any };
  [key: string]: unknown;
}

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
}

let cachedDocument: OpenApiDocument | undefined;

/** Parses the OpenAPI document once and returns the same object after that (treat it as read-only). */
export function loadSpec(): OpenApiDocument {
  cachedDocument ??= readSpecDocument() as OpenApiDocument;
  return cachedDocument;
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

const validatorCache = new Map<string, ValidateFunction>();

/** Returns the compiled ajv validator for a component schema, compiled once. */
export function getValidator(name: SchemaName, options: ValidatorOptions = {}): ValidateFunction {
  const closed = options.closed === true;
  const key = `${name}:${closed ? 'closed' : 'open'}`;
  let validate = validatorCache.get(key);
  if (!validate) {
    validate = compileValidator(loadSpec(), name, closed);
    validatorCache.set(key, validate);
  }
  return validate;
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
