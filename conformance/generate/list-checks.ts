/**
 * The checks of a generated listPets request: the documented answer, the
 * limit, the status filter, unique ids, and a complete list holding every
 * animal the run created that matches it.
 * @see ../../docs/contract.md "Endpoints §1 List animals", "Limits"
 */
import { listPetsLimit, petStatuses } from '../../spec/index.ts';
import { bodyArray, checkThat, describeStatus } from '../judge/checks.ts';
import type { CheckResult, Exchange } from '../types.ts';
import { basics, type CreatedAnimal, describeSent, type Finding, finding } from './checks.ts';
import { type ListQuery, validLimit } from './params.ts';

const STATUSES: readonly string[] = petStatuses();
const LIMIT = listPetsLimit();

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
  const count = checkThat('item count', items.length <= max, `${items.length} items, at most ${max} allowed`);
  out.push(finding('listPets', 'limit', count));
  if (query.status !== undefined && known) out.push(finding('listPets', 'filter', filterCheck(items, query.status)));
  const ids = items.map((p) => p?.id).filter((id): id is number => Number.isSafeInteger(id));
  out.push(finding('listPets', 'unique', uniqueCheck(ids)));
  // A complete list counts only when an animal it must hold was created before it: otherwise it checked nothing.
  const expected = created.filter(
    (a) => a.id !== undefined && (query.status === undefined || a.sent.status === query.status),
  );
  if (valid && items.length < max && expected.length > 0)
    out.push(finding('listPets', 'listed', listedCheck(ids, expected)));
  return out;
}

function filterCheck(items: readonly Record<string, unknown>[], status: string): CheckResult {
  const wrong = items.filter((p) => p?.status !== status).map(describeStatus);
  const message = `${wrong.length} of ${items.length} items have another status`;
  return checkThat('filter', wrong.length === 0, message, wrong.slice(0, 5));
}

function uniqueCheck(ids: readonly number[]): CheckResult {
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  const message =
    repeated.length === 0
      ? `${ids.length} distinct ids`
      : `ids listed more than once: ${repeated.slice(0, 5).join(', ')}`;
  return checkThat('unique ids', repeated.length === 0, message);
}

function listedCheck(ids: readonly number[], expected: readonly CreatedAnimal[]): CheckResult {
  const listed = new Set(ids);
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
