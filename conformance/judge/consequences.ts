/**
 * Failures that are only the consequence of an earlier cause. A server that
 * accepts an invalid body (201 where 400 is required) stores an animal that is
 * not a valid Pet; every later listing or fetch that returns it then fails its
 * schema check. Those later cases are not findings of their own: each points
 * at the cause that let the animal in.
 */
import { getValidator } from '../../spec/index.ts';
import type { CaseResult, CheckResult, Exchange } from '../types.ts';

/**
 * A case result as the run hands it to the judge: the public one, and what the server created from requests this
 * case judged it should have refused (`id 7`, or its JSON when it has no id), to find consequences. Internal: the
 * report never carries it (redact-report.ts drops it).
 */
export type JudgedCase = CaseResult & { letIn?: string[] };

/** The value a variation's check is labelled with (`limit=-1` of `limit=-1: status`), or undefined for an unlabelled check. */
export function labelValue(name: string): string | undefined {
  const cut = name.lastIndexOf(': ');
  return cut < 0 ? undefined : name.slice(0, cut).split(' ').at(-1);
}

/** The check of a variation is named `label: check`; the check is the part after the last `: `. */
export function bareName(name: string): string {
  return name.slice(name.lastIndexOf(': ') + 1).trim();
}

function idOf(value: unknown): number | undefined {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return Number.isSafeInteger(id) ? (id as number) : undefined;
}

/** Longer JSON is not compared: a stored animal is small, and a server's answer may be anything. */
const MAX_IDENTITY_CHARS = 4096;

/**
 * How a stored thing is recognised in a later answer: by its id when it has a usable one, else by its whole JSON
 * (json-server stores a posted array as it is, with no id). Undefined when it cannot be told (too deep or too long).
 */
function identity(value: unknown): string | undefined {
  const id = idOf(value);
  if (id !== undefined) return `id ${id}`;
  try {
    const json = JSON.stringify(value);
    return json !== undefined && json.length <= MAX_IDENTITY_CHARS ? `json ${json}` : undefined;
  } catch {
    return undefined; // nested deeper than the stack allows: a hostile answer, not a stored animal
  }
}

/**
 * What a server created from a request it should have refused, as {@link identity}: the exchange is a POST that got
 * a 2xx with a body where the case's failed status check required an error. Undefined otherwise.
 */
export function acceptedIdentity(ex: Exchange | undefined): string | undefined {
  const status = ex?.response?.status ?? 0;
  if (ex?.request.method !== 'POST' || status < 200 || status > 299) return undefined;
  const json = ex.response?.json;
  return json === undefined ? undefined : identity(json);
}

/** The invalid Pets in an answer (each item of an array, or the object itself), by the check's own schema. */
function invalidItems(ex: Exchange, closed: boolean): unknown[] {
  const json = ex.response?.json;
  const status = ex.response?.status ?? 0;
  if (status < 200 || status > 299 || json === undefined) return [];
  const pet = getValidator('Pet', { closed });
  const items = Array.isArray(json) ? json : [json];
  return items.filter((item) => !pet(item));
}

/**
 * The items of a `status=` listing that have another status, or undefined when one of them is a valid Pet (a filter
 * bug of its own). Each left is no Pet at all: what an invalid create let in (status ["sold"] read loosely as sold).
 */
function filteredInInvalid(ex: Exchange): unknown[] | undefined {
  const json = ex.response?.json;
  let status: string | null = null;
  try {
    status = new URL(ex.request.url).searchParams.get('status');
  } catch {
    return undefined;
  }
  if (!Array.isArray(json) || status === null) return [];
  const pet = getValidator('Pet');
  const wrong = json.filter((item) => (item as { status?: unknown } | null)?.status !== status);
  return wrong.every((item) => !pet(item)) ? wrong : undefined;
}

/** An explained failure: the cause it follows from and the animals that carry it. */
export interface Consequence {
  /** The key of the cause that let the animals in. */
  key: string;
  /** Their ids (`id 7`), or their JSON when they have none. */
  ids: string[];
  /** How the failure follows from the cause, when it is not an animal let in from a refused request. */
  because?: string;
}

/** The id a `new id` check found the service gave a create although an animal already held it. */
export function clashedId(check: CheckResult): string | undefined {
  if (check.ok || bareName(check.name) !== 'new id') return undefined;
  return /answered with id (-?\d+); the existing animal has id \1$/.exec(check.message)?.[1];
}

/** The ids a `unique ids` check found listed twice, or the id an `id N: as sent` read-back found changed. */
function repeatedIds(k: CheckResult): string[] | undefined {
  const bare = bareName(k.name);
  if (bare === 'unique ids') return /ids listed more than once: (.*)$/.exec(k.message)?.[1]?.split(', ') ?? ['?'];
  if (bare === 'as sent') return [labelValue(k.name) ?? '?'];
  return undefined;
}

/**
 * Whether every failed check of `c` is a `unique ids` check (or a read-back `as sent`) whose ids are all ids an
 * earlier cause found the service handing out twice (`clashed`: id to that cause's key): the listing holds the
 * animal the create overwrote or duplicated, which is that cause, not a bug of the listing.
 */
export function duplicateOf(c: CaseResult, clashed: ReadonlyMap<string, string>): Consequence | undefined {
  const failed = c.checks.filter((k) => !k.ok && !k.info);
  const each = failed.map(repeatedIds);
  if (failed.length === 0 || each.some((ids) => ids === undefined)) return undefined;
  const ids = [...new Set(each.flat() as string[])];
  const keys = new Set(ids.map((id) => clashed.get(id)));
  if (keys.size !== 1 || keys.has(undefined)) return undefined;
  return {
    key: [...keys][0]!,
    ids: ids.map((id) => `id ${id}`),
    because: `${ids.length === 1 ? `id ${ids[0]} is` : `ids ${ids.join(', ')} are`} ${failed.every((k) => bareName(k.name) === 'as sent') ? 'read back as another animal' : 'listed twice'} because the service gave a created animal an id it already held`,
  };
}

/** Whether a check is one an animal let in from a refused request can fail: a Pet schema, or a status filter. */
export function readsLetIn(k: CheckResult): boolean {
  const name = bareName(k.name);
  return name.startsWith('schema Pet') || name === 'filter';
}

/**
 * Whether every failed check of `c` is a schema check (or a status filter) that fails only because its answers hold
 * animals the server accepted from invalid requests (`accepted`: {@link identity} to the key of the cause that accepted it). Undefined
 * when any failed check is of another kind, when an invalid item is not one of those animals, or when nothing
 * invalid was found.
 */
export function consequenceOf(c: CaseResult, accepted: ReadonlyMap<string, string>): Consequence | undefined {
  // A generated failure's `replay` line says how it repeated: not a check of the server's answer.
  const failed = c.checks.filter((k: CheckResult) => !k.ok && k.name !== 'replay');
  const filter = failed.some((k) => bareName(k.name) === 'filter');
  if (failed.length === 0 || !failed.every(readsLetIn)) return undefined;
  const closed = failed.some((k) => k.name.endsWith('(strict)'));
  // A schema failure is explained by every invalid item; a filter's alone by the items it should have left out.
  const schema = failed.some((k) => bareName(k.name).startsWith('schema Pet'));
  const ids = new Set<string>();
  let key: string | undefined;
  for (const ex of c.exchanges) {
    const letThrough = filter ? filteredInInvalid(ex) : [];
    if (letThrough === undefined) return undefined;
    const items = schema ? invalidItems(ex, closed) : letThrough;
    for (const item of items) {
      const id = identity(item);
      const from = id === undefined ? undefined : accepted.get(id);
      if (id === undefined || from === undefined) return undefined;
      ids.add(id);
      key ??= from;
    }
  }
  return key === undefined ? undefined : { key, ids: [...ids] };
}
