/**
 * The fake Petstore's generated-only bugs (GeneratedBug): each breaks one documented rule for some values,
 * combinations of parameters or store sizes only, where no fixed case sends a request. Each function is a
 * hook the operations call; without the bug it changes nothing.
 */
import type { Pet } from '../../spec/index.ts';
import { error, type FakeResult, type FakeState } from './fake-model.ts';

const INT32_MAX = 2n ** 31n - 1n;

/** A list request answered by a bug before any work, or undefined. */
export function listBugResponse(s: FakeState, rawLimit: string | null, status: string | null): FakeResult | undefined {
  if (s.bugs.has('bigLimit500') && rawLimit !== null && /^\d+$/.test(rawLimit) && BigInt(rawLimit) > INT32_MAX)
    return error(s, 500, 'internal', 'integer overflow');
  if (s.bugs.has('paddedStatusBareError') && status !== null && status !== status.trim())
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'bad status' };
  return undefined;
}

/** Whether a bug makes the list ignore its status filter. */
export function filterIgnoredByBug(s: FakeState, status: string | null, limit: number): boolean {
  return s.bugs.has('pendingFilterIgnoredMidLimit') && status === 'pending' && limit > 50 && limit < 100;
}

/** The page a list answers with, given the (filtered, ordered) items: what the bugs do to it. */
export function pageWithBugs(s: FakeState, items: Pet[], limit: number, status: string | null): Pet[] {
  const visible = s.bugs.has('negativeCategoryUnlisted') ? items.filter((p) => !(p.categoryId < 0)) : items;
  const extra = s.bugs.has('limitOneTooManySome') && limit >= 37 && limit <= 42;
  const page = visible.slice(0, extra ? limit + 1 : limit);
  if (s.bugs.has('duplicateSoldPage') && status === 'sold' && limit >= 10 && limit <= 15 && page.length > 1)
    page[page.length - 1] = page[0]!;
  return page;
}

/** A create answered by a bug, or undefined. */
export function createBugResponse(s: FakeState, input: Record<string, unknown>): FakeResult | undefined {
  if (s.bugs.has('categoryIdZero500') && input.categoryId === 0 && input.name === '')
    return error(s, 500, 'internal', 'boom');
  if (s.bugs.has('markupNameBareError') && typeof input.name === 'string' && input.name.includes('<'))
    return { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Request</h1>' };
  return undefined;
}

/** The name a bug stores instead of the one sent. */
export function nameWithBugs(s: FakeState, name: unknown): unknown {
  if (!s.bugs.has('longNameCut') || typeof name !== 'string' || [...name].length <= 64) return name;
  return [...name].slice(0, 64).join('');
}

/** The id of an animal of the same name, which the sameNameSameId bug reuses (overwriting it). */
export function reusedId(s: FakeState, name: unknown): number | undefined {
  if (!s.bugs.has('sameNameSameId')) return undefined;
  for (const p of s.pets.values()) if (p.name === name) return p.id;
  return undefined;
}

/** Stores a created animal, unless a bug loses it (or, once crowded, the one created before it). */
export function storeWithBugs(s: FakeState, pet: Pet): void {
  if (s.bugs.has('evictWhenCrowded') && s.pets.size > 170 && s.lastCreated !== undefined) s.pets.delete(s.lastCreated);
  s.lastCreated = pet.id;
  if (s.bugs.has('slashNameLost') && typeof pet.name === 'string' && pet.name.includes('/')) return;
  s.pets.set(pet.id, pet);
}

/** A getPet answered by a bug, or undefined. */
export function getBugResponse(s: FakeState, idText: string): FakeResult | undefined {
  if (s.bugs.has('negativeId500') && /^-\d+$/.test(idText)) return error(s, 500, 'internal', 'boom');
  return undefined;
}

/** The id a getPet looks up: a bug keeps only its low 32 bits. */
export function lookupId(s: FakeState, idText: string): number {
  return s.bugs.has('bigIdWrapped') ? Number(BigInt(idText) % 2n ** 32n) : Number(idText);
}
