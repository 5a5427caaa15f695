/**
 * Checks across entries, in time order: an animal created in one entry and
 * listed or fetched in a later one with other fields, a listing filtered by
 * `status` that holds other statuses or more items than its `limit`, and a 401
 * for a key that other entries show working. Bounded: the animals and the 401s
 * remembered are capped.
 */
import { listPetsLimit } from '../../spec/index.ts';
import { checkThat, describeStatus } from '../judge/checks.ts';
import type { CheckResult, Exchange } from '../types.ts';
import type { RecordedEntry } from './entry.ts';

/** One finding across entries: its checks and the exchanges that show it. */
interface AcrossFinding {
  entry: RecordedEntry;
  checks: CheckResult[];
  exchanges: Exchange[];
  operationId: string;
}

interface Created {
  fields: { name: unknown; categoryId: unknown; status: unknown };
  exchange: Exchange;
  seq: number;
}

const MAX_ANIMALS = 20_000;
const DEFAULT_LIMIT = listPetsLimit().default;

/** What an animal's creation keeps to show it later: its request, and its answer without the parsed JSON. */
function slim(ex: Exchange): Exchange {
  const cut = (t: string | undefined) => (t === undefined ? undefined : t.slice(0, 2048));
  const body = cut(ex.request.body);
  const request = { ...ex.request, ...(body === undefined ? {} : { body }) };
  if (!ex.response) return { ...ex, request };
  const { json: _json, ...response } = ex.response;
  return { ...ex, request, response: { ...response, body: cut(response.body) ?? '' } };
}
const MAX_REFUSALS = 1_000;

/** The state of the checks across entries. */
interface AcrossState {
  /** Records `entry` (answered, judged, for `operationId`) and returns its findings against what came before. */
  see(entry: RecordedEntry, operationId: string, judged: { validList: boolean }): AcrossFinding[];
  /** The findings only the whole recording shows (a 401 for a key another entry used with success). */
  finish(): AcrossFinding[];
  /** Animals created (2xx with an id). */
  created(): number;
}

function isPet(value: unknown): value is { id: number; name: unknown; categoryId: unknown; status?: unknown } {
  return value !== null && typeof value === 'object' && Number.isSafeInteger((value as { id?: unknown }).id);
}

function differences(was: Created['fields'], now: Record<string, unknown>): string[] {
  return (['name', 'categoryId', 'status'] as const)
    .filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]))
    .map((k) => `${k} ${JSON.stringify(was[k]) ?? 'absent'} at creation, ${JSON.stringify(now[k]) ?? 'absent'} now`);
}

/** Makes the state of the checks across entries. */
export function createAcross(): AcrossState {
  const animals = new Map<number, Created>();
  const working = new Map<string, number>();
  const refusals: { entry: RecordedEntry; op: string }[] = [];
  let createdCount = 0;
  const sameAnimal = (entry: RecordedEntry, op: string, items: unknown[]): AcrossFinding[] => {
    const out: AcrossFinding[] = [];
    for (const item of items) {
      if (!isPet(item)) continue;
      const was = animals.get(item.id);
      if (!was || was.seq === entry.seq) continue;
      const diff = differences(was.fields, item as Record<string, unknown>);
      if (diff.length === 0) continue;
      out.push({
        entry,
        operationId: op,
        checks: [checkThat('same animal', false, `id ${item.id}: ${diff.join('; ')}`)],
        exchanges: [was.exchange, entry.exchange],
      });
      break;
    }
    return out;
  };
  return {
    see(entry, op, { validList }) {
      const res = entry.exchange.response!;
      const ok = res.status >= 200 && res.status < 300;
      if (entry.auth && ok && !working.has(entry.auth.digest)) working.set(entry.auth.digest, entry.seq);
      if (entry.auth && res.status === 401 && refusals.length < MAX_REFUSALS) refusals.push({ entry, op });
      if (!ok || res.json === undefined) return [];
      if (op === 'createPet' && isPet(res.json)) {
        createdCount++;
        if (animals.size < MAX_ANIMALS) {
          const { name, categoryId, status } = res.json;
          animals.set(res.json.id, {
            fields: { name, categoryId, status },
            exchange: slim(entry.exchange),
            seq: entry.seq,
          });
        }
        return [];
      }
      if (op === 'getPet') return sameAnimal(entry, op, [res.json]);
      if (op !== 'listPets' || !Array.isArray(res.json)) return [];
      const out = sameAnimal(entry, op, res.json);
      if (!validList) return out;
      const url = new URL(entry.exchange.request.url);
      const status = url.searchParams.get('status');
      const checks: CheckResult[] = [];
      if (status !== null) {
        const other = res.json.find((p) => (p as { status?: unknown })?.status !== status);
        checks.push(
          checkThat(
            'filter',
            other === undefined,
            other === undefined ? `only status ${status}` : `status=${status} listed ${describeStatus(other)}`,
          ),
        );
      }
      const limit = Number(url.searchParams.get('limit') ?? DEFAULT_LIMIT);
      checks.push(
        checkThat('at most limit', res.json.length <= limit, `${res.json.length} items for a limit of ${limit}`),
      );
      if (checks.some((c) => !c.ok)) out.push({ entry, operationId: op, checks, exchanges: [entry.exchange] });
      return out;
    },
    finish() {
      return refusals.flatMap(({ entry, op }) => {
        const by = working.get(entry.auth!.digest);
        if (by === undefined) return [];
        return [
          {
            entry,
            operationId: op,
            checks: [checkThat('key refused', false, `401 for a key that entry #${by} used with a 2xx answer`)],
            exchanges: [entry.exchange],
          },
        ];
      });
    },
    created: () => createdCount,
  };
}
