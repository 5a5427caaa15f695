/**
 * Cases for `GET /pets` (listPets): the list, its `limit` bounds and default,
 * the status filter, and the tolerated answers to invalid parameters.
 * @see ../../docs/contract.md "Endpoints §1 List animals", "Limits"
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { type LimitBounds, listPetsLimit, type PetStatus, petStatuses } from '../../spec/index.ts';
import { EXCHANGE_ERROR_CODES } from '../errors.ts';
import { bodyArray, checkStatus, checkThat, describeStatus, expectResponse, labelled } from '../judge/checks.ts';
import type { Case, CaseContext, CheckResult, Exchange } from '../types.ts';
import { listingControl, statusControl } from './controls.ts';

const SECTION = CONTRACT_SECTIONS.listAnimals;
const NOT_INTEGER = ['limit=abc', 'limit=1.5', 'limit='];

type ListCase = Omit<Case, 'operationId' | 'writes' | 'section' | 'level'> & Partial<Pick<Case, 'section' | 'level'>>;

function listCase(c: ListCase): Case {
  return { operationId: 'listPets', writes: false, section: SECTION, level: 'required', ...c };
}

function checkAtMost(ex: Exchange, max: number): CheckResult {
  const items = bodyArray(ex);
  const n = items?.length;
  return checkThat('item count', n !== undefined && n <= max, `${n ?? 'no'} items, at most ${max} allowed`);
}

/** Just outside the documented bounds, and a negative number. */
function outOfRange(bounds: LimitBounds): string[] {
  return [...new Set([bounds.minimum - 1, bounds.maximum + 1, -1])].map((n) => `limit=${n}`);
}

function limitCase(id: string, limit: number | undefined, max: number, title: string): Case {
  return listCase({
    id,
    title,
    covers: [200],
    section: `${CONTRACT_SECTIONS.listAnimals}; ${CONTRACT_SECTIONS.limits}`,
    async run(ctx) {
      // The same answer listPets.ok judges (no limit) or the run's shared listing (the maximum): read for its count.
      const ex = await ctx.sendOnce({ method: 'GET', path: limit === undefined ? '/pets' : `/pets?limit=${limit}` });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      if (ex.response?.status === 200) ctx.check(checkAtMost(ex, max));
    },
  });
}

/** Whether every item of a listing has `status`; undefined when the answer holds no listing. */
function checkFilter(ex: Exchange, status: PetStatus): CheckResult | undefined {
  const items = bodyArray(ex) as { id?: unknown; status?: unknown }[] | undefined;
  if (!items) return undefined;
  const wrong = items.filter((p) => p?.status !== status);
  const sample = wrong.slice(0, 5).map(describeStatus);
  return checkThat(
    'filter',
    wrong.length === 0,
    `${wrong.length} of ${items.length} items have another status`,
    sample,
  );
}

function statusCase(status: PetStatus, max: number): Case {
  return listCase({
    id: `listPets.status.${status}`,
    title: `GET /pets?status=${status} returns only animals with status ${status}`,
    covers: [200],
    async run(ctx) {
      const ex = await ctx.send({ method: 'GET', path: `/pets?status=${status}&limit=${max}` });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      const filter = checkFilter(ex, status);
      if (filter) ctx.check(filter);
    },
  });
}

/**
 * Listings asked one after another with nothing written between them (the case runs alone, after the other fixed
 * cases and before the generated requests): each answers its own query, at most its `limit` animals, all of its `status`. A server that keeps
 * listings under a key that confuses two queries (a cache keyed by `limit` alone, or by a sum of `limit` and
 * `status` that collides) answers one with another's listing. Each listing follows one with a larger limit or no
 * filter, so a confused answer is a longer list than its limit or animals of another status, both of which the
 * contract rules out: the unfiltered 8 and 5, each status at 5 or 4 after them (six requests).
 */
function sequenceCase(bounds: LimitBounds): Case {
  const at = (n: number) => Math.max(bounds.minimum, Math.min(n, bounds.maximum));
  const [first, second, third] = petStatuses();
  const queries: { limit: number; status?: PetStatus }[] = [
    { limit: at(8) },
    { limit: at(5) },
    { limit: at(5), status: first },
    { limit: at(4), status: first },
    { limit: at(4), status: second },
    { limit: at(4), status: third },
  ];
  const limits = [...new Set(queries.map((q) => q.limit))];
  const shown = (q: { limit: number; status?: PetStatus }) =>
    q.status === undefined ? `limit=${q.limit}` : `status=${q.status}&limit=${q.limit}`;
  return listCase({
    id: 'listPets.sequence',
    title: `listings asked one after another (limits ${limits.join(', ')}, each status and none) each answer their own query`,
    section: `${SECTION}; ${CONTRACT_SECTIONS.limits}`,
    covers: [200],
    alone: true,
    async run(ctx) {
      for (const q of queries) {
        const ex = await ctx.send({ method: 'GET', path: `/pets?${shown(q)}` });
        // Its subject is which animals each answer holds; their shape is the other listing cases' (which ran before
        // the run's creates: these answers hold what the creates let in, shapes a create's cause already names).
        const checks = expectResponse(ex, { statuses: { 200: 'Pets' }, shape: false });
        if (ex.response?.status === 200) {
          checks.push(checkAtMost(ex, q.limit));
          const filter = q.status === undefined ? undefined : checkFilter(ex, q.status);
          if (filter) checks.push(filter);
        }
        ctx.check(...labelled(shown(q), checks));
        // A listing that failed to come is the other listing cases' finding: the sequence means nothing past it,
        // and a server slow to fail would make the case wait out one timeout per listing left.
        if (bodyArray(ex) === undefined) break;
      }
    },
  });
}

/**
 * A listing asked in absolute form (`GET http://host/v1/pets?limit=1 HTTP/1.1`): RFC 9112 §3.2.2 says a server
 * MUST accept it, though most clients send it only to proxies, so the answer is the one to the origin form. A
 * router that matches the raw target text rather than its path answers 404. Advice: the contract names resources,
 * not request forms.
 */
function absoluteFormCase(bounds: LimitBounds): Case {
  const limit = bounds.minimum;
  return listCase({
    id: 'listPets.absoluteForm',
    title: `GET /pets?limit=${limit} sent in absolute form (http://host/…/pets?limit=${limit}) is answered as in origin form`,
    section: `${SECTION}; RFC 9112 §3.2.2`,
    level: 'advice',
    basis: 'RFC 9112 §3.2.2: "A server MUST accept the absolute-form in requests"',
    covers: [200],
    async run(ctx) {
      const control = ctx.control(
        { method: 'GET', path: `/pets?limit=${limit}` },
        [200],
        'the listing in origin form must get 200 before its answer in absolute form can mean anything',
      );
      if (!(await control)) return;
      const ex = await ctx.send({ method: 'GET', path: `/pets?limit=${limit}`, absoluteForm: true });
      if (ex.error?.code === EXCHANGE_ERROR_CODES.notSent) {
        ctx.notApplicable(`not applicable: ${ex.error.message}`);
        return;
      }
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      if (ex.response?.status === 200) ctx.check(checkAtMost(ex, limit));
    },
  });
}

type Control = (ctx: CaseContext) => Promise<boolean>;

/** A 400 Error or a 200 with at most `max` items, for each query: never a 5xx (once the control got its 200). */
async function tolerate(ctx: CaseContext, control: Control, queries: string[], max: number): Promise<void> {
  if (!(await control(ctx))) return;
  for (const q of queries) await tolerateOne(ctx, q, max);
}

async function tolerateOne(ctx: CaseContext, q: string, max: number): Promise<void> {
  const ex = await ctx.sendOnce({ method: 'GET', path: `/pets?${q}` });
  const checks = expectResponse(ex, { statuses: { 200: 'Pets', 400: 'Error' }, strict: ctx.strict });
  if (ex.response?.status === 200) checks.push(checkAtMost(ex, max));
  ctx.check(...labelled(q, checks));
}

/**
 * Information: each query is refused with 400 rather than answered (once the control got its 200). The contract
 * lists no 400 for listPets and no RFC prefers a refusal to a capped answer, so this is noted, never warned.
 */
async function preferRejected(ctx: CaseContext, control: Control, queries: string[]): Promise<void> {
  if (!(await control(ctx))) return;
  for (const q of queries) {
    // The same answer the tolerating case judges: this case reads only its status.
    const ex = await ctx.sendOnce({ method: 'GET', path: `/pets?${q}` });
    ctx.check(...labelled(q, [checkStatus(ex, [400])]));
  }
}

/** Each limit the spec documents (the default, the minimum, the maximum) caps the list. */
function boundCases(bounds: LimitBounds): Case[] {
  const { minimum: min, maximum: max } = bounds;
  return [
    limitCase(
      'listPets.limit.default',
      undefined,
      bounds.default,
      `GET /pets without limit returns at most ${bounds.default} animals (the default)`,
    ),
    limitCase(
      'listPets.limit.min',
      min,
      min,
      `GET /pets?limit=${min} returns at most ${min} animal${min === 1 ? '' : 's'}`,
    ),
    limitCase('listPets.limit.max', max, max, `GET /pets?limit=${max} returns at most ${max} animals`),
  ];
}

/** Invalid limits: tolerated as a 400 Error or a capped 200, with a note of which. */
function invalidLimitCases(bounds: LimitBounds): Case[] {
  const { minimum: min, maximum: max } = bounds;
  return [
    listCase({
      id: 'listPets.limit.outOfRange',
      title: `limit outside ${min}..${max} gets a 400 Error or a 200 with at most ${max} animals, never a 5xx`,
      section: CONTRACT_SECTIONS.limits,
      covers: [200],
      run: (ctx) => tolerate(ctx, listingControl, outOfRange(bounds), max),
    }),
    listCase({
      id: 'listPets.limit.nonInteger',
      title: `a limit that is not an integer (or empty) gets a 400 Error or a 200 with at most ${max} animals`,
      section: CONTRACT_SECTIONS.limits,
      covers: [200],
      run: (ctx) => tolerate(ctx, listingControl, NOT_INTEGER, max),
    }),
    listCase({
      id: 'listPets.limit.invalid.rejected',
      title: 'an invalid limit is refused with 400 rather than answered',
      section: CONTRACT_SECTIONS.limits,
      level: 'info',
      covers: [],
      run: (ctx) => preferRejected(ctx, listingControl, [...outOfRange(bounds), ...NOT_INTEGER]),
    }),
  ];
}

/**
 * Query strings a decoder reads its own way: a parameter given twice (the contract gives each once), the
 * array-style names some frameworks turn into arrays (`limit[]`), and percent-escapes that decode to nothing
 * (RFC 3986 §2.1: `%` is followed by two hex digits). None is a value the contract defines, so a 400 Error and a
 * 200 within the bounds are both fine; a 5xx (a framework handed an array where it wanted a string) or a 400 that is
 * no Error (a query parser's HTML page) is not. A repeated `limit` is held to the larger of its values.
 */
function unusualQueryCases(max: number): Case[] {
  const repeated: [string, number][] = [
    ['limit=1&limit=2', 2],
    ['limit[]=2', max],
    ['status[]=sold', max],
  ];
  return [
    listCase({
      id: 'listPets.query.repeated',
      title: `a repeated or array-style parameter (limit=1&limit=2, limit[]=2, status[]=sold) gets a 400 Error or a 200 within the bounds, never a 5xx`,
      section: `${SECTION}; Errors`,
      covers: [200],
      async run(ctx) {
        if (!(await listingControl(ctx))) return;
        for (const [q, most] of repeated) await tolerateOne(ctx, q, most);
      },
    }),
    listCase({
      id: 'listPets.query.badEscape',
      title: 'a broken percent-escape (limit=%, status=%zz) gets a 400 Error or a 200 within the bounds, never a 5xx',
      section: `${SECTION}; Errors; RFC 3986 §2.1`,
      covers: [200],
      run: (ctx) => tolerate(ctx, listingControl, ['limit=%', 'status=%zz'], max),
    }),
  ];
}

/** Status values outside the enumeration: tolerated like invalid limits, with the same note. */
function unknownStatusCases(max: number): Case[] {
  // A made-up value, a documented one in upper case, and bytes that are not UTF-8 (0xC3 then "(": a lead byte cut off).
  const queries = ['status=adopted', `status=${petStatuses()[0]!.toUpperCase()}`, 'status=%C3('];
  return [
    listCase({
      id: 'listPets.status.unknown',
      title: `a status outside the enumeration gets a 400 Error or a 200 with at most ${max} animals`,
      covers: [200],
      run: (ctx) => tolerate(ctx, statusControl, queries, max),
    }),
    listCase({
      id: 'listPets.status.unknown.rejected',
      title: 'a status outside the enumeration is refused with 400 rather than answered',
      level: 'info',
      covers: [],
      run: (ctx) => preferRejected(ctx, statusControl, queries),
    }),
  ];
}

/**
 * A limit written with percent-escapes (`limit=%33` for `limit=3`): RFC 3986 §2.3 makes a URI with an unreserved
 * character percent-encoded equivalent to the one without, so the answer is the one to `limit=3`: 200 with at most
 * that many animals. A server that reads the query text without decoding it refuses a valid limit.
 */
function percentEncodedCase(bounds: LimitBounds): Case {
  const n = Math.min(bounds.minimum + 2, bounds.maximum);
  const escaped = [...String(n)].map((digit) => `%3${digit}`).join('');
  return listCase({
    id: 'listPets.query.percentEncoded',
    title: `GET /pets?limit=${escaped} (limit=${n} percent-encoded) returns at most ${n} animals, as limit=${n} does`,
    section: `${SECTION}; ${CONTRACT_SECTIONS.limits}; RFC 3986 §2.3`,
    covers: [200],
    async run(ctx) {
      const ex = await ctx.send({ method: 'GET', path: `/pets?limit=${escaped}` });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      if (ex.response?.status === 200) ctx.check(checkAtMost(ex, n));
    },
  });
}

/** The listPets cases, with the status values and `limit` bounds the spec documents. */
export function listPetsCases(): Case[] {
  const bounds = listPetsLimit();
  const ok = listCase({
    id: 'listPets.ok',
    title: 'GET /pets answers 200 with a JSON array of Pet',
    covers: [200],
    async run(ctx) {
      const ex = await ctx.sendOnce({ method: 'GET', path: '/pets' });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
    },
  });
  const statuses = petStatuses().map((s) => statusCase(s, bounds.maximum));
  return [
    ok,
    ...boundCases(bounds),
    ...statuses,
    ...invalidLimitCases(bounds),
    ...unknownStatusCases(bounds.maximum),
    ...unusualQueryCases(bounds.maximum),
    percentEncodedCase(bounds),
    absoluteFormCase(bounds),
    sequenceCase(bounds),
  ];
}
