/**
 * One finding per cause: the failed cases grouped by what the server does
 * wrong, most important first. A cause is read off each failed case's first
 * failed check: a 5xx on an operation, a status the contract does not allow
 * for a kind of request, or the same check failing with the same message
 * (numbers aside) on the same operation. Every later case with the same cause
 * points at it instead of standing as a finding of its own, and so does a case
 * that fails only because of what an earlier cause let in (consequences.ts).
 */
import { listOperations, type OperationInfo } from '../../spec/index.ts';
import type { RunHistory } from '../client/history.ts';
import type { CaseResult, Cause, CheckResult, Exchange, ExchangeRequest } from '../types.ts';
import { excerpt, plural } from '../words.ts';
import {
  acceptedIdentity,
  bareName,
  type Consequence,
  clashedId,
  consequenceOf,
  duplicateOf,
  type JudgedCase,
  labelValue,
  readsLetIn,
} from './consequences.ts';
import { matchOperation } from './operations.ts';

/** Numbers and quoted values aside, so `3 of 7 items` and `5 of 9 items` read the same. */
function shape(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g, '#');
}

interface Found {
  key: string;
  statement: string;
  /** The exchange that shows it. */
  exchange: Exchange | undefined;
  /** For a finding that can span operations: the operation of this case (its cause lists every one). */
  operation?: string;
  /** For a status finding: the request template that got it (a cause across operations lists every one). */
  where?: string;
  /** For a status finding: the status it got. */
  got?: string;
}

/** The checks that compare a value read back with the one sent. */
const VALUE_CHECKS = new Set(['exact', 'echo', 'same animal', 'unchanged']);

/**
 * A field the case sent as an integer beyond 2^53 (JSON text of 16 digits or more that is not a safe integer): a
 * server that parses JSON numbers as doubles changes it, and every check that later reads it fails for that one
 * reason (`exact` at creation, `echo`, `fetchable`, a generated `lost`), so they share one cause.
 */
function unsafeNumberSent(c: CaseResult): { field: string; text: string } | undefined {
  for (const ex of c.exchanges) {
    for (const m of (ex.request.body ?? '').matchAll(/"([A-Za-z_]\w*)"\s*:\s*(-?\d{16,})(?![\d.eE])/g)) {
      if (!Number.isSafeInteger(Number(m[2]))) return { field: m[1]!, text: m[2]! };
    }
  }
  return undefined;
}

/** Where the causes' requests go: the spec's operations below the base URL's path. */
interface Api {
  operations: readonly OperationInfo[];
  basePath: string;
}

/** `GET /v1/pets/{petId}`: the request's method and the spec's path template it matched (its own path if none). */
function requestTemplate(ex: Exchange, api: Api): string {
  const { method, url } = ex.request;
  const op = matchOperation(method, url, api.basePath);
  return `${method} ${op ? api.basePath + op.path : new URL(url).pathname}`;
}

function pathAndQuery(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/**
 * The exchange a failed check is about: for the check of a variation (`categoryId 4503599627370496.5: exact`,
 * `limit=-1: status`), the first request that carries the variation's value; else the case's last one.
 */
function shownBy(c: CaseResult, check: CheckResult): Exchange | undefined {
  const value = labelValue(check.name);
  // The path and query only: a value like `4` is in most ports.
  const carries = (ex: Exchange): boolean =>
    value !== undefined && (pathAndQuery(ex.request.url).includes(value) || (ex.request.body ?? '').includes(value));
  return c.exchanges.find(carries) ?? c.exchanges.at(-1);
}

function serverError(c: CaseResult): Exchange | undefined {
  return c.exchanges.find((ex) => (ex.response?.status ?? 0) >= 500);
}

/** The checks every response gets; the others are a case's own subject (`echo`, `lost`, `unique ids`, ...). */
const RESPONSE_CHECKS = new Set(['transport', 'no 5xx', 'status', 'media type', 'Error body', 'Error status']);

function isResponseCheck(name: string): boolean {
  return RESPONSE_CHECKS.has(name) || name.startsWith('schema ');
}

/** `/0/status must be equal to one of the allowed values: …` as the field (`status`) and the rule. */
function firstSchemaError(check: CheckResult): { path: string; field: string; rule: string } | undefined {
  const line = check.details?.[0];
  const match = line === undefined ? null : /^(\S+) (.*)$/.exec(line);
  if (!match) return undefined;
  const path = match[1] === '(root)' ? '' : match[1]!;
  // An item of a listing is a Pet like any other: `/0/status` and `/status` are one field.
  const field = path
    .replace(/\/\d+(?=\/|$)/g, '')
    .replace(/^\//, '')
    .replaceAll('/', '.');
  return { path, field, rule: match[2]! };
}

/** The value at a JSON pointer of the answer (`/0/status`), for the statement: `null`, `"lost"`. */
function valueAt(ex: Exchange | undefined, path: string): string | undefined {
  let at: unknown = ex?.response?.json;
  for (const part of path.split('/').slice(1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  if (at === undefined) return undefined;
  // Only a scalar is quoted: an answer's arrays and objects may nest deeper than the stack (a hostile server).
  if (at !== null && typeof at === 'object') return Array.isArray(at) ? 'an array' : 'an object';
  const text = JSON.stringify(at);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** The item schema of an answer's schema: a listing's items are Pets. */
function itemSchema(schema: string): string {
  return schema === 'Pets' ? 'Pet' : schema;
}

/**
 * A schema or Error-body failure, keyed by the schema, the field and the rule broken, whatever the operation: one
 * serialisation bug (`status: null`) is one cause in createPet, listPets and getPet alike.
 */
function schemaFinding(c: CaseResult, check: CheckResult, name: string, ex: Exchange | undefined): Found | undefined {
  const schema = name === 'Error body' ? 'Error' : /^schema (\w+)/.exec(name)?.[1];
  if (schema === undefined) return undefined;
  const item = itemSchema(schema);
  const error = check.message === `body is not a valid ${schema}` ? firstSchemaError(check) : undefined;
  if (error === undefined)
    return {
      key: `body ${item} ${shape(check.message)}`,
      statement: `${item} bodies: ${check.message.replace(` ${schema}`, ` ${item}`)}`,
      exchange: ex,
      operation: c.operationId,
    };
  // An error at the answer's root is about the root schema (a listing answered `null` is no `Pets`), not its items.
  const named = error.path === '' ? schema : item;
  const at = error.field === '' ? `\`${named}\`` : `\`${named}.${error.field}\``;
  const value = valueAt(ex, error.path);
  return {
    key: `schema ${named} ${error.field} ${shape(error.rule)}`,
    statement: `${at} ${error.rule}${value === undefined ? '' : ` (got ${value})`}`,
    exchange: ex,
    operation: c.operationId,
  };
}

/**
 * The statuses a status check allowed, said truly: "the contract requires" only when the contract documents each
 * of them for the operation; else what the suite accepts, and its basis (the contract section it reads).
 */
function required(expected: string, operation: OperationInfo | undefined, section: string): string {
  const statuses = expected.split(/ or |, /).map(Number);
  const documented = operation?.statuses ?? [];
  if (statuses.every((s) => documented.includes(s))) return `where the contract requires ${expected}`;
  const own = statuses.filter((s) => !documented.includes(s));
  return `where the suite accepts only ${expected} (the contract lists ${documented.join(', ') || 'no status'} for ${operation?.operationId ?? 'it'}; ${own.join(' or ')} is the suite's reading of ${section})`;
}

function find(c: CaseResult, check: CheckResult, api: Api): Found | undefined {
  const name = bareName(check.name);
  const last = shownBy(c, check);
  const failedServer = serverError(c);
  if (name === 'no 5xx' && failedServer) {
    // Keyed by the request that got it, whichever case sent it (createPet.listed's 500 may come from GET /pets).
    const where = requestTemplate(failedServer, api);
    return {
      key: `5xx ${where}`,
      statement: `${where} answers a server error (${failedServer.response!.status})`,
      exchange: failedServer,
    };
  }
  const unsafe = unsafeNumberSent(c);
  if (unsafe && VALUE_CHECKS.has(name))
    return {
      key: `unsafe ${unsafe.field}`,
      statement: `\`${unsafe.field}\` beyond 2^53 is not kept as sent (e.g. ${unsafe.text}): it is rounded or changed when a pet is created`,
      exchange: c.exchanges.find((ex) => ex.request.body?.includes(unsafe.text)) ?? last,
    };
  const status = name === 'status' ? /expected ([\d ,or]+), got (\d{3})/.exec(check.message) : null;
  if (status) {
    const got = status[2]!;
    // A 5xx is the no-5xx check's finding already.
    if (Number(got) >= 500 && failedServer) return undefined;
    const exchange = c.exchanges.findLast((ex) => String(ex.response?.status) === got);
    // Named by the request that got it when there is one (createPet.fetchable's 404 comes from GET /pets/{petId}).
    const where = exchange ? requestTemplate(exchange, api) : c.operationId;
    const operation = exchange
      ? matchOperation(exchange.request.method, exchange.request.url, api.basePath)
      : undefined;
    // The same kind of request refused the same way on every operation (an auth middleware's 400) is one cause.
    // An auth middleware's one behaviour (no check at all; a 400 for a scheme it does not know) is one cause on
    // every operation and every kind of bad key.
    // An invalid request accepted: which rule it broke is the bug (a loose enum comparison, a first-value decoder),
    // so two rules accepted are two causes, each with its own request, though both answered 201.
    const rule = got.startsWith('2') ? check.rule : undefined;
    const key = c.id.startsWith('auth.')
      ? `status auth ${status[1]} ${got[0]}xx`
      : `status ${where} ${status[1]} ${got}${rule === undefined ? '' : ` rule ${rule}`}`;
    return {
      key,
      statement: `${where} answers ${got} ${required(status[1]!, operation, c.section)}${rule === undefined ? '' : ` when ${rule}`}`,
      exchange: exchange ?? last,
      where,
      got,
    };
  }
  if (check.name === 'transport' || name === 'transport')
    return {
      key: `transport ${c.operationId} ${shape(check.message.replace(/^\S+ \S+: /, ''))}`,
      statement: `${c.operationId}: no usable answer: ${check.message.replace(/^\S+ \S+: /, '')}`,
      exchange: last,
    };
  const schema = schemaFinding(c, check, name, last);
  if (schema) return schema;
  if (name === 'media type')
    return {
      key: `media ${shape(check.message)}`,
      statement: `answers with the wrong media type: ${check.message.replace(/^.*?(expected)/, '$1')}`,
      exchange: last,
      operation: c.operationId,
    };
  return {
    key: `${c.operationId} ${name} ${shape(check.message)}`,
    statement: `${c.operationId}: ${name}: ${check.message}`,
    exchange: last,
  };
}

/**
 * Every distinct finding of a failed case, in check order: each failing check has a cause (the first failure
 * hides no other), except what follows from an earlier one on the same answer (a body that is not JSON after a
 * wrong media type; an Error status after an Error body that is not one; a status after a 5xx).
 */
function findingsOf(c: CaseResult, api: Api): Found[] {
  const out: Found[] = [];
  const keys = new Set<string>();
  const mediaFailed = new Set<string>();
  const labelOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf(': ')));
  for (const check of c.checks) {
    if (check.ok || check.info) continue;
    const name = bareName(check.name);
    const label = labelOf(check.name);
    if (name === 'media type') mediaFailed.add(label);
    else if ((name === 'Error body' || name.startsWith('schema ')) && mediaFailed.has(label)) continue;
    if (
      name === 'Error status' &&
      c.checks.some((k) => !k.ok && labelOf(k.name) === label && bareName(k.name) === 'Error body')
    )
      continue;
    const found = find(c, check, api);
    if (!found || keys.has(found.key)) continue;
    keys.add(found.key);
    out.push(found);
  }
  return out;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A case whose own checks (those beyond the response checks every answer gets) all passed, and whose every finding
 * is about a body's shape and already shown by an earlier case (`status: null` in the answer of a `lost` check that
 * found the animal unchanged): it fails for what another cause is, not for what its title claims, so it is that
 * cause's consequence.
 */
function alreadyShown(
  c: CaseResult,
  found: readonly Found[],
  byKey: ReadonlyMap<string, Cause>,
): Consequence | undefined {
  // Only a finding about the body's shape can belong to another case's subject; a wrong status is every case's own.
  if (!found.every((f) => /^(schema|body|media) /.test(f.key) && byKey.has(f.key))) return undefined;
  const own = c.checks.filter((k) => !k.info && !isResponseCheck(bareName(k.name)));
  // A generated check keeps only the check that failed: its subject is its last name (`lost`), passed unless named.
  const generatedSubject = c.id.startsWith('generated.') && !c.id.endsWith('.response');
  if (own.some((k) => !k.ok) || (own.length === 0 && !generatedSubject)) return undefined;
  return { key: found[0]!.key, ids: [] };
}

/**
 * A listing case whose schema and filter failures are all animals an earlier cause let in, and whose other failures
 * are `item count` alone, each finding of which is already a cause (a server that ignores `limit`): nothing of it is
 * its own, so it is the letting-in cause's consequence. A status or a 5xx is never folded in: those are every case's
 * own.
 */
function partlyLetIn(
  c: CaseResult,
  accepted: ReadonlyMap<string, string>,
  shownElsewhere: (checks: CheckResult[]) => boolean,
): Consequence | undefined {
  if (c.operationId !== 'listPets') return undefined;
  const failed = c.checks.filter((k) => !k.ok && !k.info && k.name !== 'replay');
  const others = failed.filter((k) => !readsLetIn(k));
  if (others.length === 0 || others.length === failed.length) return undefined;
  if (!others.every((k) => bareName(k.name) === 'item count') || !shownElsewhere(others)) return undefined;
  const explained = consequenceOf({ ...c, checks: c.checks.filter((k) => k.ok || readsLetIn(k)) }, accepted);
  if (!explained) return undefined;
  return {
    ...explained,
    because: `the answers hold ${explained.ids.slice(0, 3).join('; ')}${explained.ids.length > 3 ? ', …' : ''}, created from a request it should have refused; its item count fails as another cause already says`,
  };
}

/** What the run's history tells the causes (client/history.ts): the state its own requests made. */
type RunState = Pick<RunHistory, 'startedAfter' | 'madeBy' | 'made'>;

interface StateConsequence {
  consequence: Consequence;
  /** For a generated failure's reason: the earlier request its reproduction depends on. */
  dependsOn: string;
}

/** `POST /v1/pets {"name":…}`: a request in a line, its body cut short. */
function requestLine(request: ExchangeRequest): string {
  let path = request.url;
  try {
    const url = new URL(request.url);
    path = url.pathname + url.search;
  } catch {
    // the URL as sent
  }
  return `${request.method} ${path}${request.body === undefined ? '' : ` ${excerpt(request.body, 100)}`}`;
}

/**
 * Whether every finding of `c` is an answer that started failing only after a request of the run stored an animal
 * without a 2xx (the same kind of request answered 2xx before it, never after): then it is that request's
 * consequence, linked to the cause of the case that sent it. Undefined otherwise.
 */
function sinceState(
  c: CaseResult,
  found: readonly Found[],
  failed: readonly { c: CaseResult; found: Found[] }[],
  state: RunState,
): StateConsequence | undefined {
  const first = found[0]?.exchange && state.startedAfter(found[0].exchange);
  if (!first || !found.every((f) => f.exchange && state.startedAfter(f.exchange) === first)) return undefined;
  const owner = failed.find((x) => x.c !== c && x.c.exchanges.some((ex) => ex.request === first.request));
  if (!owner) return undefined;
  const create = requestLine(first.request);
  const failing = found[0]!.exchange!.request;
  return {
    consequence: {
      key: owner.found[0]!.key,
      ids: [`id ${first.id}`],
      because: `${failing.method} ${requestKindPath(failing)} answered 2xx earlier in the run and fails only since ${create} answered ${first.answered} and stored id ${first.id}`,
    },
    dependsOn: `it depends on an earlier request, ${create} (answered ${first.answered}, stored id ${first.id}): on a fresh server, send that first`,
  };
}

/** The path of a request without its query values (`/v1/pets?limit=…`). */
function requestKindPath(request: ExchangeRequest): string {
  try {
    const url = new URL(request.url);
    const names = [...new Set(url.searchParams.keys())];
    return `${url.pathname}${names.length > 0 ? `?${names.map((n) => `${n}=…`).join('&')}` : ''}`;
  } catch {
    return request.url;
  }
}

/** The status a create sent, or undefined (a body over 16 KiB is not read). */
function sentStatus(request: ExchangeRequest): unknown {
  if (request.body === undefined || request.body.length > 16 * 1024) return undefined;
  try {
    return (JSON.parse(request.body) as { status?: unknown } | null)?.status;
  } catch {
    return undefined;
  }
}

/** How many creates a cause's curl lines show before its own request; the JSON report names the rest by id. */
const MAX_SETUP = 3;

/**
 * What a cause's request needs when its answer depends on data: a fetch of an animal the run created, or a listing
 * whose answer holds animals the run created (`status=sold` after the run created sold ones). Undefined when the
 * answer holds nothing the run made.
 */
function neededState(ex: Exchange | undefined, api: Api, state: RunState): Cause['needs'] {
  if (ex === undefined || ex.request.method !== 'GET') return undefined;
  const op = matchOperation(ex.request.method, ex.request.url, api.basePath);
  let ids: number[] = [];
  let others = 0;
  if (op?.operationId === 'getPet') {
    const id = Number(new URL(ex.request.url).pathname.split('/').at(-1));
    ids = Number.isSafeInteger(id) && state.madeBy(id) ? [id] : [];
  } else if (op?.operationId === 'listPets') {
    for (const item of Array.isArray(ex.response?.json) ? (ex.response.json as unknown[]) : []) {
      const id = (item as { id?: unknown } | null)?.id;
      if (Number.isSafeInteger(id) && state.madeBy(id as number)) ids.push(id as number);
      else others++;
    }
    // A filtered listing depends on every animal the run made with that status, listed or not (one it lost too).
    const status = new URL(ex.request.url).searchParams.get('status');
    if (status !== null)
      for (const m of state.made()) if (!ids.includes(m.id) && sentStatus(m.request) === status) ids.push(m.id);
  }
  if (ids.length === 0) return undefined;
  const made = ids.map((id) => ({ id, ...state.madeBy(id)! }));
  const unanswered = made.filter((m) => m.answered !== '2xx');
  const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
  const setup = made.slice(0, MAX_SETUP);
  return {
    state: `the answer depends on ${ids.length === 1 ? 'animal' : 'animals'} ${shown}, which the run created${
      unanswered.length > 0
        ? ` (${unanswered
            .slice(0, 3)
            .map((m) => `id ${m.id} by a create that answered ${m.answered}`)
            .join(', ')}${unanswered.length > 3 ? ', …' : ''})`
        : ''
    }${others > 0 ? `, and ${plural(others, 'animal')} the server held otherwise` : ''}: on a fresh server, send ${setup.length === ids.length ? (ids.length === 1 ? 'the create' : 'the creates') : `creates like the first ${setup.length}`} below first${op?.operationId === 'getPet' ? ' and use the id it answers' : ''}`,
    setup: setup.map((m) => m.request),
  };
}

function rank(cause: Cause): number {
  return (cause.level === 'required' ? 0 : 2) + (cause.key.startsWith('5xx ') ? 0 : 1);
}

function explained(cause: Cause): number {
  return cause.cases.length + (cause.consequences?.length ?? 0);
}

/**
 * The causes of the failed cases, most important first (required before advice, server errors first, then the
 * one explaining most cases); each failed case's `cause` names its cause's id, and a case that fails only because
 * of an earlier cause (an animal it let in) is listed under it as a consequence and says so.
 */
export function findCauses(
  results: CaseResult[],
  basePath = '/v1',
  operations = listOperations(),
  state?: RunState,
): Cause[] {
  const api = { operations, basePath };
  const failed = results.flatMap((c) => {
    if (c.outcome !== 'failed') return [];
    const found = findingsOf(c, api);
    return found.length > 0 ? [{ c, found }] : [];
  });
  // The animals the server created from requests it should have refused, and the cause that let each in.
  const accepted = new Map<string, string>();
  for (const { c, found } of failed) {
    const first = found[0]!;
    const stored = first.key.startsWith('status ') ? acceptedIdentity(first.exchange) : undefined;
    for (const letIn of [...(stored === undefined ? [] : [stored]), ...((c as JudgedCase).letIn ?? [])])
      if (!accepted.has(letIn)) accepted.set(letIn, first.key);
  }
  // The ids the service handed out although an animal already held them, and the cause that found each.
  const clashed = new Map<string, string>();
  for (const { c, found } of failed)
    for (const check of c.checks) {
      const id = clashedId(check);
      const f = id === undefined ? undefined : found.find((x) => x.key.includes('new id'));
      if (id !== undefined && f && !clashed.has(id)) clashed.set(id, f.key);
    }
  const byKey = new Map<string, Cause>();
  const shownExchange = new Map<Cause, Exchange>();
  const spans = new Map<string, { operations: Set<string>; wheres: Set<string>; gots: Set<string> }>();
  const later: { c: CaseResult; consequence: Consequence }[] = [];
  const addFound = (c: CaseResult, found: readonly Found[]): void => {
    for (const f of found) {
      let cause = byKey.get(f.key);
      if (!cause) {
        cause = {
          id: '',
          key: f.key,
          statement: f.statement,
          level: c.level,
          section: c.section,
          cases: [],
          ...(f.exchange ? { request: f.exchange.request } : {}),
        };
        if (f.exchange) shownExchange.set(cause, f.exchange);
        byKey.set(f.key, cause);
        spans.set(f.key, { operations: new Set(), wheres: new Set(), gots: new Set() });
      }
      if (!cause.cases.includes(c.id)) cause.cases.push(c.id);
      if (c.level === 'required') cause.level = 'required';
      const span = spans.get(f.key)!;
      if (f.operation !== undefined) span.operations.add(f.operation);
      if (f.where !== undefined) span.wheres.add(f.where);
      if (f.got !== undefined) span.gots.add(f.got);
    }
  };
  // Failures that started only after a request of the run stored an animal are that request's, once its case has
  // a cause of its own; the rest stand as they are.
  const afterState: { c: CaseResult; found: Found[]; since: StateConsequence }[] = [];
  for (const { c, found } of failed) {
    const since = state === undefined ? undefined : sinceState(c, found, failed, state);
    if (since) {
      afterState.push({ c, found, since });
      continue;
    }
    const consequence =
      consequenceOf(c, accepted) ??
      duplicateOf(c, clashed) ??
      alreadyShown(c, found, byKey) ??
      partlyLetIn(c, accepted, (checks) => findingsOf({ ...c, checks }, api).every((f) => byKey.has(f.key)));
    if (consequence) {
      later.push({ c, consequence });
      continue;
    }
    addFound(c, found);
  }
  for (const { c, found, since } of afterState) {
    if (!byKey.has(since.consequence.key)) {
      addFound(c, found);
      continue;
    }
    later.push({ c, consequence: since.consequence });
    // A generated failure's reproduction is no longer one request from a fresh state: it says what it depends on.
    if (c.id.startsWith('generated.')) {
      if (c.reason !== undefined) c.reason = `${c.reason}; ${since.dependsOn}`;
      c.checks = c.checks.map((k) => (k.name === 'replay' ? { ...k, message: `${k.message}; ${since.dependsOn}` } : k));
    }
  }
  if (state)
    for (const cause of byKey.values()) {
      const needs = neededState(shownExchange.get(cause), api, state);
      if (needs) cause.needs = needs;
    }
  for (const { c, consequence } of later) {
    const cause = byKey.get(consequence.key)!;
    cause.consequences = [...(cause.consequences ?? []), c.id];
    if (consequence.ids.length === 0) spans.get(cause.key)!.operations.add(c.operationId);
  }
  // A cause seen on several operations says where: one bug, one cause, every place it shows.
  for (const cause of byKey.values()) {
    const span = spans.get(cause.key)!;
    if (span.wheres.size > 1) {
      const got = span.gots.size > 1 ? `${[...span.gots][0]![0]}xx` : [...span.gots][0]!;
      cause.statement = cause.statement.replace(/^\S+ \S+ answers \d{3}/, `${listed([...span.wheres])} answer ${got}`);
    } else if (span.operations.size > 1) cause.statement = `${cause.statement}, in ${listed([...span.operations])}`;
  }
  const causes = [...byKey.values()].sort((a, b) => rank(a) - rank(b) || explained(b) - explained(a));
  causes.forEach((cause, i) => {
    cause.id = `C${i + 1}`;
  });
  const causeOf = new Map(causes.flatMap((cause) => cause.cases.map((id) => [id, cause.id] as const)));
  for (const c of results) {
    const id = causeOf.get(c.id);
    if (id) c.cause = id;
  }
  for (const { c, consequence } of later) {
    const cause = byKey.get(consequence.key)!;
    c.cause = cause.id;
    if (consequence.because !== undefined) {
      c.consequence = `fails only because of ${cause.id}: ${consequence.because}`;
      continue;
    }
    if (consequence.ids.length === 0) {
      c.consequence = `fails only because of ${cause.id}: its own check passed; what failed is ${cause.id}'s finding on the same answers`;
      continue;
    }
    const ids = consequence.ids;
    // `ids 9, 10, 11`, and what has no id as its JSON.
    const numbered = ids.filter((id) => id.startsWith('id ')).map((id) => id.slice(3));
    const shown = [
      ...(numbered.length > 0 ? [`${numbered.length === 1 ? 'id' : 'ids'} ${numbered.slice(0, 5).join(', ')}`] : []),
      ...ids.filter((id) => !id.startsWith('id ')).map((json) => excerpt(json.slice(5), 60)),
    ];
    c.consequence = `fails only because of ${cause.id}: the answer holds ${plural(ids.length, 'animal')} (${shown.slice(0, 3).join('; ')}${numbered.length > 5 || shown.length > 3 ? ', …' : ''}) that the server created from a request it should have refused`;
  }
  return causes;
}
