/**
 * Scenarios: canned answers for the next matching API requests (`times`, or
 * until removed), for apps that cannot set a `Prefer` header. Counting is
 * synchronous, so concurrent requests never use a scenario more often than
 * `times`.
 * @see ../../docs/mock.md "Scenarios"
 */

import { canonicalPath, matchesTemplate } from '../../spec/match.ts';
import { PetstoreMockError } from './errors.ts';
import { SCENARIO_STATUSES } from './forced.ts';
import { MAX_DELAY_MS } from './prefer.ts';
import { FAULTS, type Fault } from './responses.ts';

/** What a client asks for when it adds a scenario. */
export interface ScenarioInput {
  /** Only requests with this method (any when absent). */
  method?: string;
  /** Only this path: exact (`/v1/pets`) or a template (`/v1/pets/{petId}`); any API path when absent. */
  path?: string;
  /** How many matching requests it answers; until removed when absent. */
  times?: number;
  status?: number;
  delayMs?: number;
  fault?: Fault;
}

/** A scenario as listed: its input, its id, and how often it has answered. */
export interface Scenario extends ScenarioInput {
  id: string;
  /** Answers left (only with `times`). */
  remaining?: number;
  /** Requests it has answered so far. */
  matched: number;
}

/** The scenarios of one mock. */
export interface ScenarioStore {
  /** Validates and adds one; throws a {@link PetstoreMockError} naming the bad field. */
  add(input: ScenarioInput): Scenario;
  /** Removes one by id; false when there was none. */
  remove(id: string): boolean;
  clear(): void;
  list(): Scenario[];
  /** The first scenario for this request (its path canonical: spec/match.ts), counted as used; undefined when none matches. */
  take(method: string, path: string): Scenario | undefined;
}

const FIELDS = ['method', 'path', 'times', 'status', 'delayMs', 'fault'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function invalid(message: string): PetstoreMockError {
  return new PetstoreMockError('PETSTORE_MOCK_INVALID_SCENARIO', `invalid scenario: ${message}`);
}

function integerIn(value: unknown, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

/** Throws unless `input` is a valid scenario; returns it with the method upper-cased. */
function validateScenario(input: unknown): ScenarioInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('the body must be an object');
  const s = input as Record<string, unknown>;
  const unknown = Object.keys(s).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw invalid(`${unknown} is not a scenario field; fields: ${FIELDS.join(', ')}`);
  if (s.method !== undefined && !(typeof s.method === 'string' && METHODS.includes(s.method.toUpperCase())))
    throw invalid(`method must be one of ${METHODS.join(', ')}`);
  if (s.path !== undefined && !(typeof s.path === 'string' && s.path.startsWith('/') && !s.path.includes('?')))
    throw invalid('path must start with / and hold no query (/v1/pets or /v1/pets/{petId})');
  // A thousand scenarios of a megabyte each would hold a gigabyte: a path is at most what a request line may be.
  if (typeof s.path === 'string' && s.path.length > MAX_SCENARIO_PATH)
    throw invalid(`path must be at most ${MAX_SCENARIO_PATH} characters`);
  if (s.times !== undefined && !integerIn(s.times, 1, 1_000_000_000))
    throw invalid('times must be an integer from 1 to 1000000000');
  if (s.status !== undefined && !SCENARIO_STATUSES.includes(s.status as number))
    throw invalid(`status must be one of ${SCENARIO_STATUSES.join(', ')}`);
  if (s.delayMs !== undefined && !integerIn(s.delayMs, 0, MAX_DELAY_MS))
    throw invalid(`delayMs must be an integer from 0 to ${MAX_DELAY_MS}`);
  if (s.fault !== undefined && !(FAULTS as readonly unknown[]).includes(s.fault))
    throw invalid(`fault must be one of ${FAULTS.join(', ')}`);
  if (s.status === undefined && s.delayMs === undefined && s.fault === undefined)
    throw invalid('status, delayMs or fault is required');
  if (s.status !== undefined && s.fault !== undefined) throw invalid('status and fault cannot be combined');
  const method = typeof s.method === 'string' ? s.method.toUpperCase() : undefined;
  return { ...(s as ScenarioInput), ...(method === undefined ? {} : { method }) };
}

/** Characters of a scenario's path. */
const MAX_SCENARIO_PATH = 2_048;

/** Scenarios held at once; one more is a 400 (each request looks some of them up). */
export const MAX_SCENARIOS = 1_000;

/** A scenario as held: its numeric id orders matches across the index's buckets; `at` is its path, canonical. */
interface Held extends Scenario {
  order: number;
  at?: string;
}

/** A template's bucket: its depth and its literal start, up to the last `/` before its first `{` (`{3}/v1/pets/`). */
function templateKey(path: string): string {
  return `{${depthOf(path)}}${path.slice(0, path.lastIndexOf('/', path.indexOf('{')) + 1)}`;
}

/** Slashes in `path`: templates are bucketed by it, so a request walks only those of its own depth. */
function depthOf(path: string): number {
  let depth = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) depth++;
  return depth;
}

/**
 * An empty set of scenarios; ids count up from 1 and are never reused. They are
 * indexed by method (or `*`) and path: exact (`GET /v1/pets/7`), a template
 * by its depth and literal start (`GET {3}/v1/pets/`), or none (`GET *`). A
 * request looks up a few buckets per segment and walks only the templates that
 * could match it, each one compiled regular expression; the first added that
 * matches answers.
 */
export function createScenarioStore(): ScenarioStore {
  const all = new Map<string, Held>();
  const buckets = new Map<string, Held[]>();
  let lastId = 0;
  const keyOf = (s: Pick<Held, 'method' | 'at'>) =>
    `${s.method ?? '*'} ${s.at === undefined ? '*' : s.at.includes('{') ? templateKey(s.at) : s.at}`;
  const drop = (held: Held) => {
    all.delete(held.id);
    const key = keyOf(held);
    const rest = buckets.get(key)!.filter((s) => s !== held);
    if (rest.length === 0) buckets.delete(key);
    else buckets.set(key, rest);
  };
  const firstIn = (key: string, path: string, best: Held | undefined): Held | undefined => {
    for (const s of buckets.get(key) ?? []) {
      if (best !== undefined && s.order > best.order) return best;
      if (s.at === undefined || !s.at.includes('{') || matchesTemplate(s.at, path)) return s;
    }
    return best;
  };
  const view = ({ order: _order, at: _at, ...scenario }: Held): Scenario => scenario;
  return {
    add(input) {
      const valid = validateScenario(input);
      if (all.size >= MAX_SCENARIOS)
        throw invalid(`at most ${MAX_SCENARIOS} scenarios at once; remove some (DELETE /__control/scenarios) first`);
      const order = ++lastId;
      const held: Held = { ...valid, id: String(order), matched: 0, order };
      // Matched as the request's path is, in its canonical spelling (`/v1/%70ets` is `/v1/pets`).
      if (valid.path !== undefined) held.at = canonicalPath(valid.path);
      if (held.times !== undefined) held.remaining = held.times;
      all.set(held.id, held);
      const key = keyOf(held);
      buckets.set(key, [...(buckets.get(key) ?? []), held]);
      return view(held);
    },
    remove(id) {
      const held = all.get(id);
      if (held !== undefined) drop(held);
      return held !== undefined;
    },
    clear: () => {
      all.clear();
      buckets.clear();
    },
    list: () => [...all.values()].map(view),
    take(method, path) {
      // Every API request asks; with no scenario set, that must cost nothing.
      if (all.size === 0) return undefined;
      let found: Held | undefined;
      const depth = `{${depthOf(path)}}`;
      for (const m of method === 'HEAD' ? ['HEAD', 'GET', '*'] : [method, '*']) {
        found = firstIn(`${m} ${path}`, path, found);
        found = firstIn(`${m} *`, path, found);
        // Templates whose literal start is each of the path's prefixes (`/`, `/v1/`, `/v1/pets/`).
        for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1))
          found = firstIn(`${m} ${depth}${path.slice(0, i + 1)}`, path, found);
      }
      if (!found) return undefined;
      found.matched++;
      if (found.remaining !== undefined && --found.remaining === 0) drop(found);
      return view(found);
    },
  };
}
