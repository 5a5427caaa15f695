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
import type { CaseResult, Cause, CheckResult, Exchange } from '../types.ts';
import { excerpt, plural } from '../words.ts';
import { acceptedIdentity, bareName, type Consequence, consequenceOf, type JudgedCase } from './consequences.ts';
import { matchOperation } from './operations.ts';

/** Numbers and quoted values aside, so `3 of 7 items` and `5 of 9 items` read the same. */
function shape(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\d+(\.\d+)?/g, '#');
}

interface Found {
  key: string;
  statement: string;
  /** The exchange that shows it. */
  exchange: Exchange | undefined;
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

/**
 * The exchange a failed check is about: for the check of a variation (`categoryId 4503599627370496.5: exact`,
 * `limit=-1: status`), the first request that carries the variation's value; else the case's last one.
 */
function shownBy(c: CaseResult, check: CheckResult): Exchange | undefined {
  const cut = check.name.lastIndexOf(': ');
  const value = cut < 0 ? undefined : check.name.slice(0, cut).split(' ').at(-1);
  const carries = (ex: Exchange): boolean =>
    value !== undefined && (ex.request.url.includes(value) || (ex.request.body ?? '').includes(value));
  return c.exchanges.find(carries) ?? c.exchanges.at(-1);
}

function serverError(c: CaseResult): Exchange | undefined {
  return c.exchanges.find((ex) => (ex.response?.status ?? 0) >= 500);
}

function find(c: CaseResult, check: CheckResult, api: Api): Found {
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
    const exchange = c.exchanges.findLast((ex) => String(ex.response?.status) === got);
    // Named by the request that got it when there is one (createPet.fetchable's 404 comes from GET /pets/{petId}).
    const where = exchange ? requestTemplate(exchange, api) : c.operationId;
    return {
      key: `status ${where} ${status[1]} ${got}`,
      statement: `${where} answers ${got} where the contract requires ${status[1]}`,
      exchange: exchange ?? last,
    };
  }
  if (check.name === 'transport' || name === 'transport')
    return {
      key: `transport ${c.operationId} ${shape(check.message.replace(/^\S+ \S+: /, ''))}`,
      statement: `${c.operationId}: no usable answer: ${check.message.replace(/^\S+ \S+: /, '')}`,
      exchange: last,
    };
  return {
    key: `${c.operationId} ${name} ${shape(check.message)}`,
    statement: `${c.operationId}: ${name}: ${check.message}`,
    exchange: last,
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
export function findCauses(results: CaseResult[], basePath = '/v1', operations = listOperations()): Cause[] {
  const api = { operations, basePath };
  const failed = results.flatMap((c) => {
    const check = c.outcome === 'failed' ? c.checks.find((k) => !k.ok) : undefined;
    return check ? [{ c, found: find(c, check, api) }] : [];
  });
  // The animals the server created from requests it should have refused, and the cause that let each in.
  const accepted = new Map<string, string>();
  for (const { c, found } of failed) {
    const stored = found.key.startsWith('status ') ? acceptedIdentity(found.exchange) : undefined;
    for (const letIn of [...(stored === undefined ? [] : [stored]), ...((c as JudgedCase).letIn ?? [])])
      if (!accepted.has(letIn)) accepted.set(letIn, found.key);
  }
  const byKey = new Map<string, Cause>();
  const later: { c: CaseResult; consequence: Consequence }[] = [];
  for (const { c, found } of failed) {
    const consequence = consequenceOf(c, accepted);
    if (consequence) {
      later.push({ c, consequence });
      continue;
    }
    let cause = byKey.get(found.key);
    if (!cause) {
      cause = {
        id: '',
        key: found.key,
        statement: found.statement,
        level: c.level,
        section: c.section,
        cases: [],
        ...(found.exchange ? { request: found.exchange.request } : {}),
      };
      byKey.set(found.key, cause);
    }
    cause.cases.push(c.id);
    if (c.level === 'required') cause.level = 'required';
  }
  for (const { c, consequence } of later) {
    const cause = byKey.get(consequence.key)!;
    cause.consequences = [...(cause.consequences ?? []), c.id];
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
    const ids = consequence.ids;
    // `ids 9, 10, 11`, and what has no id as its JSON.
    const numbered = ids.filter((id) => id.startsWith('id ')).map((id) => id.slice(3));
    const shown = [
      ...(numbered.length > 0 ? [`${numbered.length === 1 ? 'id' : 'ids'} ${numbered.slice(0, 5).join(', ')}`] : []),
      ...ids.filter((id) => !id.startsWith('id ')).map((json) => excerpt(json.slice(5), 60)),
    ];
    c.cause = cause.id;
    c.consequence = `fails only because of ${cause.id}: the answer holds ${plural(ids.length, 'animal')} (${shown.slice(0, 3).join('; ')}${numbered.length > 5 || shown.length > 3 ? ', …' : ''}) that the server created from a request it should have refused`;
  }
  return causes;
}
