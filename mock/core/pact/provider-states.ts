/**
 * The provider states of the mock's pacts: a small vocabulary, one name per
 * thing a provider must hold, with params. The pact writer picks them from
 * what the mock held when it answered; `POST /__control/provider-states`
 * makes them hold on the mock, so that any pact for this interface can be
 * verified against it.
 * @see ../../../docs/mock.md "Consumer contracts (Pact)"
 */
import type { Pet } from '../../../spec/index.ts';
import { PetstoreMockError } from '../errors.ts';
import type { RequestContext } from '../layers.ts';

/** A Pact provider state: its name and params. */
export interface ProviderState {
  name: string;
  params?: Record<string, unknown>;
}

/** Pact's state-change request, as the verifier posts it. */
export interface ProviderStateChange {
  state: string;
  params?: Record<string, unknown>;
  /** `setup` (the default) or `teardown`. */
  action?: 'setup' | 'teardown';
}

/** The state names, as templates (`{id}` stands for the param of that name): what a server team writes handlers for. */
const PROVIDER_STATE_NAMES = [
  'a pet with id {id} exists',
  'no pet with id {id}',
  'no pets',
  'pets exist',
  'a pet with status {status} exists',
  'the service answers {status}',
] as const;

/** The states an answer relied on: from the request, the answer and the pet it gave. */
export function states(context: RequestContext, status: number, body: unknown, forced: boolean): ProviderState[] {
  if (forced) return [{ name: `the service answers ${status}`, params: { status } }];
  const operationId = context.operation?.operationId;
  if (operationId === 'getPet' && (status === 200 || status === 404)) {
    const raw = context.route?.params.petId ?? '';
    const id = Number(raw);
    if (status === 404) return [{ name: `no pet with id ${raw}`, params: { id } }];
    const pet = body as Partial<Pet>;
    const fields = Object.fromEntries(
      (['name', 'categoryId', 'status'] as const).filter((n) => pet[n] !== undefined).map((n) => [n, pet[n]]),
    );
    return [{ name: `a pet with id ${raw} exists`, params: { id, ...fields } }];
  }
  if (operationId === 'listPets' && status === 200) {
    if (Array.isArray(body) && body.length === 0) return [{ name: 'no pets', params: {} }];
    const filter = new URLSearchParams(context.query).get('status');
    return filter === null
      ? [{ name: 'pets exist', params: {} }]
      : [{ name: `a pet with status ${filter} exists`, params: { status: filter } }];
  }
  return [];
}

const PATTERNS: [RegExp, string][] = [
  [/^a pet with id (-?[0-9]{1,16}) exists$/, 'id'],
  [/^no pet with id (-?[0-9]{1,16})$/, 'id'],
  [/^no pets$/, ''],
  [/^pets exist$/, ''],
  [/^a pet with status ([a-z]{1,40}) exists$/, 'status'],
  [/^the service answers ([0-9]{3})$/, 'status'],
];

function refuse(message: string): PetstoreMockError {
  return new PetstoreMockError('PETSTORE_MOCK_UNKNOWN_STATE', message);
}

/** A state-change request checked: its template, and its params with the one the name carries. */
function parse(change: unknown): { template: string; params: Record<string, unknown>; action: string } {
  if (typeof change !== 'object' || change === null || Array.isArray(change))
    throw refuse('the body must be { state, params?, action? }');
  const { state, params = {}, action = 'setup' } = change as Record<string, unknown>;
  if (typeof state !== 'string') throw refuse('state must be a string');
  // Pact's verifier sends an empty state for an interaction that has none: nothing to set up.
  if (state === '') return { template: '', params: {}, action: action as string };
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw refuse('params must be an object');
  if (action !== 'setup' && action !== 'teardown') throw refuse('action must be setup or teardown');
  for (const [i, [pattern, param]] of PATTERNS.entries()) {
    const match = pattern.exec(state);
    if (!match) continue;
    const fromName =
      match[1] === undefined ? {} : { [param]: param === 'status' && i === 5 ? Number(match[1]) : match[1] };
    return { template: PROVIDER_STATE_NAMES[i]!, params: { ...params, ...fromName }, action };
  }
  throw refuse(
    `unknown provider state ${JSON.stringify(state.slice(0, 200))}; the known states are: ${PROVIDER_STATE_NAMES.join('; ')}`,
  );
}

/**
 * What a provider state acts on: a mock's pets and scenarios. A PetstoreMock is one; the type lives here, below
 * petstore-mock.ts (which names this module's types), so that the two do not import each other.
 */
interface StateHolder {
  readonly pets: { all(): Pet[] | Promise<Pet[]> };
  readonly scenarios: { add(input: { status: number }): { id: string }; remove(id: string): boolean };
  replacePets(pets: readonly Pet[]): void | Promise<void>;
}

/** Scenarios set by `the service answers {status}`, per mock, removed by the next state change. */
const forcedScenarios = new WeakMap<StateHolder, string[]>();

/**
 * Makes a state hold on `mock` (setup), or ends it (teardown: a forced answer is removed; pets stay): the pets
 * change as little as the state needs. Throws a PetstoreMockError (`PETSTORE_MOCK_UNKNOWN_STATE`) naming the
 * known states for a name outside the vocabulary, or `PETSTORE_MOCK_INVALID_PETS` for params no Pet can hold.
 */
export function applyProviderState(mock: StateHolder, change: unknown): StateApplied | Promise<StateApplied> {
  const { template, params, action } = parse(change);
  for (const id of forcedScenarios.get(mock) ?? []) mock.scenarios.remove(id);
  forcedScenarios.delete(mock);
  if (action === 'teardown' || template === '') return { state: template, action };
  if (template === 'the service answers {status}') {
    const added = mock.scenarios.add({ status: Number(params.status) });
    forcedScenarios.set(mock, [added.id]);
    return { state: template, action };
  }
  const pets = mock.pets.all();
  const done = (): StateApplied => ({ state: template, action });
  const set = (held: Pet[]) => {
    const wanted = petsFor(template, params, held);
    const replaced = wanted && mock.replacePets(wanted);
    return replaced instanceof Promise ? replaced.then(done) : done();
  };
  return pets instanceof Promise ? pets.then(set) : set(pets);
}

/** What a provider state answers: the state's template and the action taken. */
export interface StateApplied {
  state: string;
  action: string;
}

/** The pets that make the state `template` hold, changed as little as it needs from `pets`; undefined: as they are. */
function petsFor(template: string, params: Record<string, unknown>, pets: Pet[]): Pet[] | undefined {
  const nextId = () => pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
  const filler = (id: number, extra: Partial<Pet> = {}): Pet => ({ id, name: `Pet ${id}`, categoryId: 1, ...extra });
  if (template === 'a pet with id {id} exists') {
    const id = Number(params.id);
    const fields = Object.fromEntries(
      ['name', 'categoryId', 'status'].filter((n) => params[n] !== undefined).map((n) => [n, params[n]]),
    );
    return [...pets.filter((p) => p.id !== id), { ...filler(id), ...fields } as Pet];
  }
  if (template === 'no pet with id {id}') return pets.filter((p) => p.id !== Number(params.id));
  if (template === 'no pets') return [];
  if (template === 'pets exist' && pets.length === 0) return [filler(1)];
  if (template === 'a pet with status {status} exists' && !pets.some((p) => p.status === params.status))
    return [...pets, filler(nextId(), { status: params.status as Pet['status'] })];
  return undefined;
}
