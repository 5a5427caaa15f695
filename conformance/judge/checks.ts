/**
 * Reusable checks of one exchange: transport, status, no 5xx, media type,
 * schema (ajv validators from spec/) and the Error body. Each returns a
 * CheckResult; none throws.
 */
import { describeSchemaErrors, getValidator, type SchemaName } from '../../spec/index.ts';
import { schemaOutline } from '../../spec/outline.ts';
import type { CheckResult, Exchange } from '../types.ts';

/** `id 7 has status "sold"`, `id 7 has no status`, `an item without an id has status "sold"`: never "undefined". */
export function describeStatus(item: unknown): string {
  const p = item !== null && typeof item === 'object' ? (item as { id?: unknown; status?: unknown }) : {};
  const id = p.id === undefined ? 'an item without an id' : `id ${JSON.stringify(p.id)}`;
  return `${id} ${p.status === undefined ? 'has no status' : `has status ${JSON.stringify(p.status)}`}`;
}

/** A check result from a condition. */
export function checkThat(name: string, ok: boolean, message: string, details?: string[]): CheckResult {
  return details && details.length > 0 ? { name, ok, message, details } : { name, ok, message };
}

/** Passes when a response arrived whole (no timeout, reset, garbage or oversized body). */
export function checkTransport(ex: Exchange): CheckResult {
  if (ex.error) return checkThat('transport', false, `${ex.error.code}: ${ex.error.message}`);
  return checkThat('transport', ex.response !== undefined, ex.response ? 'response received' : 'no response');
}

/** Passes when the status is one of `allowed`. */
export function checkStatus(ex: Exchange, allowed: readonly number[]): CheckResult {
  const got = ex.response?.status;
  const want = allowed.join(' or ');
  return checkThat(
    'status',
    got !== undefined && allowed.includes(got),
    `expected ${want}, got ${got ?? 'no response'}`,
  );
}

/** Passes unless the server answered with a 5xx. */
export function checkNo5xx(ex: Exchange): CheckResult {
  const got = ex.response?.status ?? 0;
  if (got >= 500) return { name: 'no 5xx', ok: false, message: `server error ${got}`, required: true };
  return checkThat('no 5xx', true, `status ${got}`);
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Passes when the response is `application/json` (parameters such as charset allowed). */
export function checkJsonMediaType(ex: Exchange): CheckResult {
  const type = ex.response?.headers['content-type'];
  const ok = mediaType(type) === 'application/json';
  return checkThat(
    'media type',
    ok,
    ok
      ? 'application/json'
      : `expected application/json, got ${type === undefined ? 'no Content-Type' : JSON.stringify(type)}`,
  );
}

/** Passes when the body is JSON valid against the spec schema `name` (closed: no unknown properties). */
export function checkSchema(ex: Exchange, name: SchemaName, closed = false): CheckResult {
  const label = `schema ${name}${closed ? ' (strict)' : ''}`;
  const res = ex.response;
  if (!res) return checkThat(label, false, 'no response');
  // What the body should have been, from the document: a failure says how to fix it, not only what is wrong.
  const expected = (): string => `expected ${schemaOutline(name)}`;
  if (res.json === undefined) {
    return checkThat(label, false, res.jsonError ? `body is not JSON: ${res.jsonError}` : 'body is empty', [
      expected(),
    ]);
  }
  const validate = getValidator(name, { closed });
  if (validate(res.json)) return checkThat(label, true, `valid ${name}`);
  return checkThat(label, false, `body is not a valid ${name}`, [
    ...capped(describeSchemaErrors(validate.errors)),
    expected(),
  ]);
}

const MAX_DETAILS = 10;

function capped(lines: string[]): string[] {
  return lines.length <= MAX_DETAILS
    ? lines
    : [...lines.slice(0, MAX_DETAILS), `… and ${lines.length - MAX_DETAILS} more`];
}

/** Passes when the body is an Error whose `status` equals the HTTP status. */
export function checkErrorBody(ex: Exchange): CheckResult[] {
  const schema = checkSchema(ex, 'Error');
  if (!schema.ok) return [{ ...schema, name: 'Error body' }];
  const status = (ex.response!.json as { status: number }).status;
  const http = ex.response!.status;
  return [schema, checkThat('Error status', status === http, `Error.status ${status}, HTTP status ${http}`)];
}

/** Options of {@link expectResponse}. */
export interface ExpectOptions {
  /** Each allowed status and the schema its body must match. */
  statuses: Partial<Record<number, SchemaName>>;
  /** Close the Pet and Pets schemas (`--strict`). */
  strict?: boolean;
  /** `false` leaves the body's shape to other cases: the status and the media type only, no schema. */
  shape?: false;
}

/** The usual checks of one response: transport, no 5xx, status, media type, and body schema (Error bodies also carry the HTTP status). */
export function expectResponse(ex: Exchange, options: ExpectOptions): CheckResult[] {
  const transport = checkTransport(ex);
  if (!transport.ok) return [transport];
  const allowed = Object.keys(options.statuses).map(Number);
  const results = [transport, checkNo5xx(ex), checkStatus(ex, allowed)];
  const schema = options.statuses[ex.response!.status];
  if (schema === undefined) return results;
  results.push(checkJsonMediaType(ex));
  if (options.shape === false) return results;
  if (schema === 'Error') results.push(...checkErrorBody(ex));
  else results.push(checkSchema(ex, schema, options.strict === true && (schema === 'Pet' || schema === 'Pets')));
  return results;
}

/** Prefixes check names with a label, for cases that send several requests. */
export function labelled(label: string, results: CheckResult[]): CheckResult[] {
  return results.map((r) => ({ ...r, name: `${label}: ${r.name}` }));
}

/** The body as an array, when the response was a 200 JSON array. */
export function bodyArray(ex: Exchange): unknown[] | undefined {
  return ex.response?.status === 200 && Array.isArray(ex.response.json) ? ex.response.json : undefined;
}
