/**
 * The per-run shared state (the few animals the run creates, one listing) and
 * the per-case context that records every exchange and check of a case.
 */
import { getValidator, listPetsLimit, type Pet } from '../../spec/index.ts';
import type { Client } from '../client/client.ts';
import { NEAR_KEY_WORDS, type NearKey } from '../client/near-key.ts';
import type {
  CaseContext,
  CaseRequest,
  CheckResult,
  CreatedKind,
  CreatedRecord,
  Creation,
  Exchange,
} from '../types.ts';

/** A listing of as many animals as one page may hold, made once per run. */
interface Listing {
  exchange: Exchange;
  pets?: Pet[];
}

/** State shared by the cases of one run. */
export interface Shared {
  creation(kind: CreatedKind): Promise<Creation>;
  listing(): Promise<Listing>;
  /** Sends `request` once per run (the same request again gets the same exchange): the cases' control requests. */
  once(request: CaseRequest): Promise<Exchange>;
  /** Whether `ex` is one of the shared exchanges, which later cases may still read. */
  holds(ex: Exchange): boolean;
}

/** Options of {@link createShared}. */
interface SharedOptions {
  client: Client;
  runId: string;
}

/** The prefix of every name the run creates. */
export function namePrefix(runId: string): string {
  return `conformance-${runId}-`;
}

/**
 * The id a create's answer gives the new animal, or what is missing for one: later cases need only the id (its
 * other fields are judged by the createPet cases, so a server that writes a missing status as null still gets them).
 */
function createdId(exchange: Exchange): number | string {
  const res = exchange.response;
  if (exchange.error || res === undefined) return `POST /pets got no answer (${exchange.error?.code ?? 'no response'})`;
  if (res.status < 200 || res.status >= 300) return `POST /pets answered ${res.status}, not a 2xx`;
  const id = (res.json as { id?: unknown } | null | undefined)?.id;
  if (res.json === undefined) return `POST /pets answered ${res.status} with a body that is not JSON`;
  if (id === undefined) return `POST /pets answered ${res.status} with no id in its body`;
  // Ids beyond 2^53 do not survive JSON.parse exactly, so only a safe one can be fetched back.
  if (!Number.isSafeInteger(id))
    return `POST /pets answered ${res.status} with id ${JSON.stringify(id)}, not an integer the suite can send back exactly`;
  return id as number;
}

/** Makes the shared state: each create and the listing happen at most once, whichever case asks first. */
export function createShared(options: SharedOptions): Shared {
  const creations = new Map<CreatedKind, Promise<Creation>>();
  const sent = new Map<string, Promise<Exchange>>();
  const held = new WeakSet<Exchange>();
  let listing: Promise<Listing> | undefined;

  async function send(request: CaseRequest): Promise<Exchange> {
    const ex = await options.client.send(request);
    held.add(ex);
    return ex;
  }

  function once(request: CaseRequest): Promise<Exchange> {
    // No auth is the run's key, and a body's media type defaults to JSON: the same request however it was spelled.
    const contentType = request.body === undefined ? request.contentType : (request.contentType ?? 'application/json');
    const key = JSON.stringify([request.method, request.path, request.auth ?? 'key', request.body, contentType]);
    let p = sent.get(key);
    if (!p) sent.set(key, (p = send(request)));
    return p;
  }

  function list(): Promise<Listing> {
    listing ??= once({ method: 'GET', path: `/pets?limit=${listPetsLimit().maximum}` }).then((exchange) => {
      const json = exchange.response?.status === 200 ? exchange.response.json : undefined;
      return getValidator('Pets')(json) ? { exchange, pets: json as Pet[] } : { exchange };
    });
    return listing;
  }

  async function create(kind: CreatedKind): Promise<Creation> {
    const categoryId = (await list()).pets?.[0]?.categoryId ?? 1;
    const sent = {
      name: namePrefix(options.runId) + kind,
      categoryId,
      ...(kind === 'noStatus' ? {} : { status: kind }),
    };
    const exchange = await send({ method: 'POST', path: '/pets', body: JSON.stringify(sent) });
    const id = createdId(exchange);
    if (typeof id !== 'number') return { exchange, sent, missing: id };
    // The animal as the server answered it when that is a Pet; else as sent, with its id.
    return {
      exchange,
      sent,
      pet: getValidator('Pet')(exchange.response!.json) ? (exchange.response!.json as Pet) : { ...sent, id },
    };
  }

  return {
    listing: list,
    once,
    holds: (ex) => held.has(ex),
    creation(kind) {
      let p = creations.get(kind);
      if (!p) creations.set(kind, (p = create(kind)));
      return p;
    },
  };
}

/** Options of {@link createCaseContext}. */
export interface CaseContextOptions {
  client: Client;
  shared: Shared;
  runId: string;
  strict: boolean;
  readOnly: boolean;
  /** The kinds of near key the run's key has. */
  nearKeys: readonly NearKey[];
  /** What `ctx.created()` gives, when not every animal the client saw created (the read-back's: the fixed cases'). */
  created?: readonly CreatedRecord[];
}

/** A case context and what it recorded. */
interface RecordingContext {
  ctx: CaseContext;
  checks: CheckResult[];
  exchanges: Exchange[];
  skipReason(): string | undefined;
  notApplicableReason(): string | undefined;
}

/** How a request's credentials read in a control's reason (the run's key is never shown). */
function credentials(auth: CaseRequest['auth']): string {
  if (auth === undefined || auth === 'key') return '';
  if (typeof auth === 'object')
    return 'nearKey' in auth ? ` with ${NEAR_KEY_WORDS[auth.nearKey]}` : ` with Authorization: ${auth.authorization}`;
  return {
    none: ' without credentials',
    basic: ' with the key as Basic',
    lowercase: ' with "bearer <key>"',
    prefixedScheme: ' with "xbearer <key>"',
    bare: ' with the key alone, no scheme',
    colon: ' with "Bearer:<key>"',
  }[auth];
}

/** Makes the context of one case; every exchange it sends or borrows is recorded for the report. */
export function createCaseContext(options: CaseContextOptions): RecordingContext {
  const checks: CheckResult[] = [];
  const exchanges: Exchange[] = [];
  let skipped: string | undefined;
  let notApplicable: string | undefined;
  const record = (ex: Exchange): void => {
    if (!exchanges.includes(ex)) exchanges.push(ex);
  };
  const ctx: CaseContext = {
    runId: options.runId,
    strict: options.strict,
    readOnly: options.readOnly,
    nearKeys: options.nearKeys,
    name: (suffix) => namePrefix(options.runId) + suffix,
    async send(request: CaseRequest) {
      const ex = await options.client.send(request);
      record(ex);
      return ex;
    },
    async sendOnce(request: CaseRequest) {
      const ex = await options.shared.once(request);
      record(ex);
      return ex;
    },
    check: (...results) => void checks.push(...results),
    skip: (reason) => void (skipped ??= reason),
    notApplicable: (reason) => void (notApplicable ??= reason),
    async control(request, statuses, why) {
      const create = 'creation' in request;
      const ex = create
        ? (await options.shared.creation(request.creation)).exchange
        : await options.shared.once(request);
      const got = ex.response?.status;
      if (!ex.error && got !== undefined && statuses.includes(got)) return true;
      // Only a failed control is shown with the case: a passing one exercised nothing the case judges.
      record(ex);
      const what = create
        ? "POST /pets (the run's shared create)"
        : `${request.method} ${request.path}${credentials(request.auth)}`;
      const answer = ex.error ? `failed (${ex.error.code})` : `answered ${got}`;
      ctx.notApplicable(`not applicable: the control ${what} ${answer}, not ${statuses.join(' or ')}; ${why}`);
      return false;
    },
    async knownPetId() {
      if (!options.readOnly) {
        const c = await options.shared.creation('available');
        if (c.pet) return c.pet.id;
      }
      return (await options.shared.listing()).pets?.find((p) => Number.isSafeInteger(p.id))?.id;
    },
    async creation(kind) {
      const c = await options.shared.creation(kind);
      record(c.exchange);
      return c;
    },
    async existingPet() {
      if (!options.readOnly) {
        const c = await ctx.creation('available');
        if (!c.pet)
          ctx.skip(`prerequisite failed: creating an animal to read gave no id: ${c.missing} (see createPet.full)`);
        return c.pet;
      }
      return ctx.listedPet();
    },
    async listedPet() {
      const l = await options.shared.listing();
      record(l.exchange);
      // Ids beyond 2^53 do not survive JSON.parse exactly, so only a safe one can be fetched back.
      const pet = l.pets?.find((p) => Number.isSafeInteger(p.id));
      if (!pet) ctx.skip('prerequisite failed: GET /pets returned no animal to fetch');
      return pet;
    },
    async categoryId() {
      return (await options.shared.listing()).pets?.[0]?.categoryId ?? 1;
    },
    created: () => options.created ?? options.client.stats.creations,
  };
  return { ctx, checks, exchanges, skipReason: () => skipped, notApplicableReason: () => notApplicable };
}
