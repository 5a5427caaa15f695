/**
 * Generated cases (`--generate N`): N requests per operation drawn from the
 * spec's schemas, in model-based sequences, each failure shrunk to the
 * smallest reproduction and reported like a fixed case under a stable id
 * (`generated.<operation>.<check>`). Seeded: the same seed (and run id) sends
 * the same requests, byte for byte, to a server in the same state.
 */
import { getValidator, listPetsLimit, type Pet } from '../../spec/index.ts';
import type { Client } from '../client/client.ts';
import { keepForReport } from '../run/keep.ts';
import type { CaseResult, GenerationSummary } from '../types.ts';
import type { GeneratedProperty } from './catalog.ts';
import type { GeneratedOperation } from './commands.ts';
import { generatedResults } from './results.ts';

export { type GeneratedProperty, generatedProperties } from './catalog.ts';

/** The seed a run uses when none is given, so that two runs of the same command send the same requests. */
export const DEFAULT_GENERATION_SEED = 1;

/** What generation needs of the run's settings. */
export interface GenerationSettings {
  /** Generated requests per operation (> 0). */
  requests: number;
  seed: number;
  strict: boolean;
  /** Only reads are generated. */
  readOnly: boolean;
  /** The run's name prefix when every generated name must carry it (shared environments); undefined otherwise. */
  prefix: string | undefined;
  /** The generated properties to run and report (selected by `only`/`skip`). */
  properties: readonly GeneratedProperty[];
  /** True once the run has ended (`maxTimeMs`): no further sequence is run or shrunk. */
  ended?: () => boolean;
}

/** What generation adds to a run: its case results, the summary for the report, and requests per `operation status`. */
export interface GenerationOutcome {
  results: CaseResult[];
  summary: GenerationSummary;
  statuses: Map<string, number>;
}

async function existingIds(client: Client, statuses: Map<string, number>): Promise<number[]> {
  const ex = await client.send({ method: 'GET', path: `/pets?limit=${listPetsLimit().maximum}` });
  if (ex.response) statuses.set(`listPets ${ex.response.status}`, 1);
  const json = ex.response?.status === 200 ? ex.response.json : undefined;
  return getValidator('Pets')(json) ? (json as Pet[]).map((p) => p.id).filter((id) => Number.isSafeInteger(id)) : [];
}

/** Runs the generated sequences against the client's server and reports each selected generated check. */
export async function runGeneration(client: Client, o: GenerationSettings): Promise<GenerationOutcome> {
  const createdBefore = client.stats.created;
  const selected = new Set(o.properties.map((c) => c.id));
  const operations = new Set<GeneratedOperation>(
    o.properties.map((c) => c.operationId).filter((op) => !(o.readOnly && op === 'createPet')),
  );
  const statuses = new Map<string, number>();
  const existing = await existingIds(client, statuses);
  // Loaded here, not at the top: fast-check and the arbitraries cost about half a second and 200 MB to load,
  // and a run without generated cases must not pay for them.
  const { search, REPLAYS, SHRINK_BUDGET } = await import('./search.ts');
  const s = await search({
    seed: o.seed,
    requests: o.requests,
    operations,
    readOnly: o.readOnly,
    strict: o.strict,
    prefix: o.prefix,
    existing,
    fixedIds: [...client.stats.createdIds],
    selected: (id) => selected.has(id),
    send: (request) => client.send(request),
    ended: o.ended ?? (() => false),
  });
  for (const [key, n] of s.statuses) statuses.set(key, (statuses.get(key) ?? 0) + n);
  const summary: GenerationSummary = {
    seed: o.seed,
    requestsPerOperation: o.requests,
    sent: { ...s.sent, listPets: s.sent.listPets + 1 },
    shrinkRequests: s.shrinkRequests,
    replayRequests: s.replayRequests,
    replays: REPLAYS,
    shrinkBudget: { requests: SHRINK_BUDGET.requests, seconds: SHRINK_BUDGET.ms / 1000 },
    skipped: [...s.skipped].map(([reason, count]) => ({ reason, count })),
    created: client.stats.created - createdBefore,
    readOnly: o.readOnly,
  };
  const results = generatedResults(o.properties, s, {
    seed: o.seed,
    requests: o.requests,
    strict: o.strict,
    readOnly: o.readOnly,
    created: summary.created,
  });
  // Judged: what the report shows is all that is kept.
  for (const r of results) for (const ex of r.exchanges) keepForReport(ex);
  return { results, summary, statuses };
}
