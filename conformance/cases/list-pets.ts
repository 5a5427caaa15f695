/**
 * Cases for `GET /pets` (listPets): the list, its `limit` bounds and default,
 * the status filter, and the tolerated answers to invalid parameters.
 * @see ../../../shared/petstore-interface.md "Endpoints §1 List animals", "Limits"
 */
import type { PetStatus } from '../../spec/index.ts';
import { bodyArray, checkStatus, checkThat, expectResponse, labelled } from '../checks.ts';
import type { Case, CaseContext, CheckResult, Exchange } from '../types.ts';

const SECTION = 'Endpoints §1 List animals';
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];
const OUT_OF_RANGE = ['limit=0', 'limit=101', 'limit=-1'];
const NOT_INTEGER = ['limit=abc', 'limit=1.5', 'limit='];
const UNKNOWN_STATUS = ['status=adopted', 'status=AVAILABLE'];

type ListCase = Omit<Case, 'operationId' | 'writes' | 'section' | 'level'> & Partial<Pick<Case, 'section' | 'level'>>;

function listCase(c: ListCase): Case {
  return { operationId: 'listPets', writes: false, section: SECTION, level: 'required', ...c };
}

function checkAtMost(ex: Exchange, max: number): CheckResult {
  const items = bodyArray(ex);
  const n = items?.length;
  return checkThat('item count', n !== undefined && n <= max, `${n ?? 'no'} items, at most ${max} allowed`);
}

function limitCase(id: string, limit: number | undefined, title: string): Case {
  const max = limit ?? 20;
  return listCase({
    id, title, covers: [200], section: 'Endpoints §1 List animals; Limits',
    async run(ctx) {
      const ex = await ctx.send({ method: 'GET', path: limit === undefined ? '/pets' : `/pets?limit=${limit}` });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      if (ex.response?.status === 200) ctx.check(checkAtMost(ex, max));
    },
  });
}

function statusCase(status: PetStatus): Case {
  return listCase({
    id: `listPets.status.${status}`,
    title: `GET /pets?status=${status} returns only animals with status ${status}`,
    covers: [200],
    async run(ctx) {
      const ex = await ctx.send({ method: 'GET', path: `/pets?status=${status}&limit=100` });
      ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      const items = bodyArray(ex) as { id?: unknown; status?: unknown }[] | undefined;
      if (!items) return;
      const wrong = items.filter((p) => p?.status !== status);
      const sample = wrong.slice(0, 5).map((p) => `id ${JSON.stringify(p?.id)} has status ${JSON.stringify(p?.status)}`);
      ctx.check(checkThat('filter', wrong.length === 0, `${wrong.length} of ${items.length} items have another status`, sample));
    },
  });
}

/** A 400 Error or a 200 with at most 100 items, for each query: never a 5xx. */
async function tolerate(ctx: CaseContext, queries: string[]): Promise<void> {
  for (const q of queries) {
    const ex = await ctx.send({ method: 'GET', path: `/pets?${q}` });
    const checks = expectResponse(ex, { statuses: { 200: 'Pets', 400: 'Error' }, strict: ctx.strict });
    if (ex.response?.status === 200) checks.push(checkAtMost(ex, 100));
    ctx.check(...labelled(q, checks));
  }
}

/** Advice: each query is refused with 400 rather than answered. */
async function preferRejected(ctx: CaseContext, queries: string[]): Promise<void> {
  for (const q of queries) {
    const ex = await ctx.send({ method: 'GET', path: `/pets?${q}` });
    ctx.check(...labelled(q, [checkStatus(ex, [400])]));
  }
}

/** The listPets cases. */
export function listPetsCases(): Case[] {
  return [
    listCase({
      id: 'listPets.ok',
      title: 'GET /pets answers 200 with a JSON array of Pet',
      covers: [200],
      async run(ctx) {
        const ex = await ctx.send({ method: 'GET', path: '/pets' });
        ctx.check(...expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict }));
      },
    }),
    limitCase('listPets.limit.default', undefined, 'GET /pets without limit returns at most 20 animals (the default)'),
    limitCase('listPets.limit.min', 1, 'GET /pets?limit=1 returns at most 1 animal'),
    limitCase('listPets.limit.max', 100, 'GET /pets?limit=100 returns at most 100 animals'),
    ...STATUSES.map(statusCase),
    listCase({
      id: 'listPets.limit.outOfRange',
      title: 'limit outside 1..100 gets a 400 Error or a 200 with at most 100 animals, never a 5xx',
      section: 'Limits', covers: [200],
      run: (ctx) => tolerate(ctx, OUT_OF_RANGE),
    }),
    listCase({
      id: 'listPets.limit.nonInteger',
      title: 'a limit that is not an integer (or empty) gets a 400 Error or a 200 with at most 100 animals',
      section: 'Limits', covers: [200],
      run: (ctx) => tolerate(ctx, NOT_INTEGER),
    }),
    listCase({
      id: 'listPets.limit.invalid.rejected',
      title: 'an invalid limit is refused with 400 rather than answered',
      section: 'Limits', level: 'advice', covers: [],
      run: (ctx) => preferRejected(ctx, [...OUT_OF_RANGE, ...NOT_INTEGER]),
    }),
    listCase({
      id: 'listPets.status.unknown',
      title: 'a status outside the enumeration gets a 400 Error or a 200 with at most 100 animals',
      covers: [200],
      run: (ctx) => tolerate(ctx, UNKNOWN_STATUS),
    }),
    listCase({
      id: 'listPets.status.unknown.rejected',
      title: 'a status outside the enumeration is refused with 400 rather than answered',
      level: 'advice', covers: [],
      run: (ctx) => preferRejected(ctx, UNKNOWN_STATUS),
    }),
  ];
}
