/**
 * Scenarios: canned answers for the next matching API requests (`times`, or
 * until removed), for apps that cannot set a `Prefer` header. Counting is
 * synchronous, so concurrent requests never use a scenario more often than
 * `times`.
 * @see ../../docs/mock.md "Scenarios"
 */
import { PetstoreMockError } from './errors.ts';
import { FORCEABLE_STATUSES } from './forced.ts';
import { matchesPath } from './layers.ts';
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
  /** The first scenario for this request, counted as used; undefined when none matches. */
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
export function validateScenario(input: unknown): ScenarioInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('the body must be an object');
  const s = input as Record<string, unknown>;
  const unknown = Object.keys(s).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw invalid(`${unknown} is not a scenario field; fields: ${FIELDS.join(', ')}`);
  if (s.method !== undefined && !(typeof s.method === 'string' && METHODS.includes(s.method.toUpperCase())))
    throw invalid(`method must be one of ${METHODS.join(', ')}`);
  if (s.path !== undefined && !(typeof s.path === 'string' && s.path.startsWith('/') && !s.path.includes('?')))
    throw invalid('path must start with / and hold no query (/v1/pets or /v1/pets/{petId})');
  if (s.times !== undefined && !integerIn(s.times, 1, 1_000_000_000))
    throw invalid('times must be an integer from 1 to 1000000000');
  if (s.status !== undefined && !FORCEABLE_STATUSES.includes(s.status as number))
    throw invalid(`status must be one of ${FORCEABLE_STATUSES.join(', ')}`);
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

/** An empty set of scenarios; ids count up from 1 and are never reused. */
export function createScenarioStore(): ScenarioStore {
  let scenarios: Scenario[] = [];
  let lastId = 0;
  return {
    add(input) {
      const scenario: Scenario = { ...validateScenario(input), id: String(++lastId), matched: 0 };
      if (scenario.times !== undefined) scenario.remaining = scenario.times;
      scenarios.push(scenario);
      return { ...scenario };
    },
    remove(id) {
      const before = scenarios.length;
      scenarios = scenarios.filter((s) => s.id !== id);
      return scenarios.length < before;
    },
    clear: () => void (scenarios = []),
    list: () => scenarios.map((s) => ({ ...s })),
    take(method, path) {
      // Every API request asks; with no scenario set, that must cost nothing.
      if (scenarios.length === 0) return undefined;
      const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
      const found = scenarios.find(
        (s) =>
          (s.method === undefined || wanted.includes(s.method)) && (s.path === undefined || matchesPath(s.path, path)),
      );
      if (!found) return undefined;
      found.matched++;
      if (found.remaining !== undefined && --found.remaining === 0) scenarios = scenarios.filter((s) => s !== found);
      return { ...found };
    },
  };
}
