/**
 * The checks of one generated request, as findings named by generated check
 * id. Each is a pure function of the exchange, what was sent and what the
 * sequence created; none throws. The usual per-response checks come from
 * ../checks.ts, so a generated request is judged like a fixed one.
 */
import { listPetsLimit, petStatuses } from '../../spec/index.ts';
import { bodyArray, checkThat, type ExpectOptions, expectResponse } from '../checks.ts';
import type { CheckResult, Exchange, Level } from '../types.ts';
import type { ListQuery, NewPetValue } from './values.ts';
import { validLimit } from './values.ts';

/** One check of one generated request, under its generated check id. */
export interface Finding {
  id: string;
  level: Level;
  result: CheckResult;
}

/** An animal generated requests created: its id (undefined when not a safe integer) and what was sent. */
export interface CreatedAnimal {
  id: number | undefined;
  sent: NewPetValue;
}

const STATUSES: readonly string[] = petStatuses();
const LIMIT = listPetsLimit();

function finding(op: string, check: string, result: CheckResult, level: Level = 'required'): Finding {
  return { id: `generated.${op}.${check}`, level, result };
}

/** expectResponse's results split into `no5xx` and `response` findings; a 5xx fails `no5xx` alone. */
function basics(op: string, ex: Exchange, options: ExpectOptions, responseCheck = 'response'): Finding[] {
  const serverError = (ex.response?.status ?? 0) >= 500;
  return expectResponse(ex, options)
    .filter((r) => !(serverError && r.name === 'status'))
    .map((r) => finding(op, r.name === 'no 5xx' ? 'no5xx' : responseCheck, r));
}

/** A string as a report shows it: its length in code points and an excerpt. */
export function describeText(s: string): string {
  const points = [...s];
  const shown = points.length > 40 ? `${points.slice(0, 40).join('')}…` : s;
  return `${points.length} character${points.length === 1 ? '' : 's'} ${JSON.stringify(shown)}`;
}

/** Whether an integer field of `body` (the raw JSON text) holds exactly `digits`. */
function rawIntegerIs(body: string, field: string, value: bigint): boolean {
  return new RegExp(`"${field}"\\s*:\\s*${value}(?![0-9.eE])`).test(body);
}

/** The differences between a returned Pet (parsed and raw) and what was sent; empty when it is as sent with an integer id. */
export function petDifferences(json: unknown, raw: string, sent: NewPetValue): string[] {
  const p = (json ?? {}) as Record<string, unknown>;
  const diffs: string[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (typeof value === 'bigint') {
      // A JSON number beyond 2^53 is rounded by JSON.parse, so the digits are looked for in the text.
      const safe = value >= -(2n ** 53n) + 1n && value <= 2n ** 53n - 1n;
      const kept = safe ? p[field] === Number(value) : rawIntegerIs(raw, field, value);
      if (!kept) diffs.push(`${field}: sent ${value}, got ${JSON.stringify(p[field])}`);
    } else if (p[field] !== value) {
      const got = typeof p[field] === 'string' ? describeText(p[field] as string) : JSON.stringify(p[field]);
      diffs.push(`${field}: sent ${describeText(value)}, got ${got}`);
    }
  }
  if (!Number.isInteger(p.id)) diffs.push(`id: expected an integer, got ${JSON.stringify(p.id)}`);
  return diffs;
}

function asPet(ex: Exchange, status: number): Record<string, unknown> | undefined {
  const json = ex.response?.status === status ? ex.response.json : undefined;
  return json !== null && typeof json === 'object' && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

/** The checks of a generated listPets request. */
export function listFindings(
  ex: Exchange,
  query: ListQuery,
  created: readonly CreatedAnimal[],
  strict: boolean,
): Finding[] {
  const known = query.status === undefined || STATUSES.includes(query.status);
  const limit = query.limit === undefined ? LIMIT.default : validLimit(query.limit);
  const valid = known && limit !== undefined;
  const out = basics('listPets', ex, { statuses: valid ? { 200: 'Pets' } : { 200: 'Pets', 400: 'Error' }, strict });
  const items = bodyArray(ex) as Record<string, unknown>[] | undefined;
  if (!items) return out;
  const max = limit ?? LIMIT.maximum;
  out.push(
    finding(
      'listPets',
      'limit',
      checkThat('item count', items.length <= max, `${items.length} items, at most ${max} allowed`),
    ),
  );
  if (query.status !== undefined && known) {
    const wrong = items
      .filter((p) => p?.status !== query.status)
      .map((p) => `id ${p?.id} has status ${JSON.stringify(p?.status)}`);
    out.push(
      finding(
        'listPets',
        'filter',
        checkThat(
          'filter',
          wrong.length === 0,
          `${wrong.length} of ${items.length} items have another status`,
          wrong.slice(0, 5),
        ),
      ),
    );
  }
  const ids = items.map((p) => p?.id).filter((id): id is number => Number.isSafeInteger(id));
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  out.push(
    finding(
      'listPets',
      'unique',
      checkThat(
        'unique ids',
        repeated.length === 0,
        repeated.length === 0
          ? `${ids.length} distinct ids`
          : `ids listed more than once: ${repeated.slice(0, 5).join(', ')}`,
      ),
    ),
  );
  if (valid && items.length < max) out.push(finding('listPets', 'listed', listedCheck(ids, query, created)));
  return out;
}

function listedCheck(ids: readonly number[], query: ListQuery, created: readonly CreatedAnimal[]): CheckResult {
  const listed = new Set(ids);
  const expected = created.filter(
    (a) => a.id !== undefined && (query.status === undefined || a.sent.status === query.status),
  );
  const missing = expected
    .filter((a) => !listed.has(a.id!))
    .map((a) => `id ${a.id}: created as ${describeSent(a.sent)}`);
  return checkThat(
    'complete list',
    missing.length === 0,
    missing.length === 0
      ? `all ${expected.length} matching animals created in this run listed`
      : `${missing.length} animal(s) created earlier in this run missing from a list of ${ids.length} (fewer than its limit, so complete)`,
    missing.slice(0, 5),
  );
}

/** What was sent, for a report line: each field, the name described. */
export function describeSent(sent: NewPetValue): string {
  return Object.entries(sent)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? describeText(v) : String(v)}`)
    .join(', ');
}

/**
 * The checks of a generated create of a valid NewPet; `pet` is the accepted animal, when there is one.
 * `takenBy(id)` describes the animal an id was already given to in this run, if any.
 */
export function createFindings(
  ex: Exchange,
  sent: NewPetValue,
  takenBy: (id: number) => string | undefined,
  strict: boolean,
): { findings: Finding[]; pet?: CreatedAnimal } {
  const out = basics('createPet', ex, { statuses: { 201: 'Pet', 400: 'Error' }, strict });
  const status = ex.response?.status;
  const category = Object.values(sent).find((v): v is bigint => typeof v === 'bigint');
  const unsafe = category !== undefined && (category > 2n ** 53n - 1n || category < -(2n ** 53n) + 1n);
  // A categoryId beyond 2^53 may be refused (or kept exactly); any other refusal is the server's choice, worth a note.
  if (status === 400 && !unsafe)
    out.push(
      finding(
        'createPet',
        'validRefused',
        checkThat(
          'accepted',
          false,
          `a valid NewPet with name ${describeText(String(sent.name))} was refused with 400`,
        ),
        'advice',
      ),
    );
  if (status === 201) out.push(finding('createPet', 'validRefused', checkThat('accepted', true, 'accepted'), 'advice'));
  const json = asPet(ex, 201);
  if (!json) return { findings: out };
  const diffs = petDifferences(json, ex.response!.body, sent);
  out.push(
    finding(
      'createPet',
      'echo',
      checkThat(
        'echo',
        diffs.length === 0,
        diffs.length === 0 ? 'fields as sent, integer id' : 'the Pet differs from what was sent',
        diffs,
      ),
    ),
  );
  const id = Number.isSafeInteger(json.id) ? (json.id as number) : undefined;
  const earlier = id === undefined ? undefined : takenBy(id);
  out.push(
    finding(
      'createPet',
      'newId',
      checkThat(
        'new id',
        earlier === undefined,
        earlier ? `id ${id} was already given earlier in this run to ${earlier}` : `id ${json.id}`,
      ),
    ),
  );
  return { findings: out, pet: { id, sent } };
}

/** The checks of reading back an animal: `check` is `fetchable` right after its create, `lost` later on. */
export function readBackFindings(
  ex: Exchange,
  animal: CreatedAnimal,
  op: 'createPet' | 'getPet',
  check: string,
  strict: boolean,
): Finding[] {
  // Right after a create, a failed read (a 5xx included) is that create's failure; later on, a 5xx is getPet's.
  const out =
    op === 'createPet'
      ? expectResponse(ex, { statuses: { 200: 'Pet' }, strict }).map((r) => finding(op, check, r))
      : basics(op, ex, { statuses: { 200: 'Pet' }, strict }, check);
  const json = asPet(ex, 200);
  if (!json) return out;
  const diffs = petDifferences(json, ex.response!.body, animal.sent);
  if (json.id !== animal.id) diffs.push(`id: asked for ${animal.id}, got ${JSON.stringify(json.id)}`);
  out.push(
    finding(
      op,
      check,
      checkThat(
        'same animal',
        diffs.length === 0,
        diffs.length === 0 ? `id ${animal.id} as created` : `id ${animal.id} is not the animal created`,
        diffs,
      ),
    ),
  );
  return out;
}

/** The checks of a generated create with an invalid body. */
export function invalidFindings(ex: Exchange, kind: string): Finding[] {
  return basics('createPet', ex, { statuses: { 400: 'Error' } }, 'invalidRefused').map((f) =>
    f.id.endsWith('.invalidRefused') ? { ...f, result: { ...f.result, message: `${kind}: ${f.result.message}` } } : f,
  );
}

/** The checks of a generated getPet for a raw petId (any int64 or a malformed segment). */
export function getFindings(ex: Exchange, rawId: string, strict: boolean): Finding[] {
  const out = basics('getPet', ex, { statuses: { 200: 'Pet', 400: 'Error', 404: 'Error' }, strict });
  const json = asPet(ex, 200);
  if (json && /^-?[0-9]+$/.test(rawId) && Number.isSafeInteger(Number(rawId))) {
    out.push(
      finding(
        'getPet',
        'response',
        checkThat('id', json.id === Number(rawId), `asked for id ${rawId}, got ${JSON.stringify(json.id)}`),
      ),
    );
  }
  return out;
}
