/**
 * Generated cases (`--generate N`): N requests per operation drawn from the
 * spec's schemas, in model-based sequences, each failure shrunk to the
 * smallest reproduction and reported like a fixed case under a stable id
 * (`generated.<operation>.<check>`). Seeded: the same seed (and run id) sends
 * the same requests, byte for byte, to a server in the same state.
 */
import { getValidator, listPetsLimit, type Pet } from '../../spec/index.ts';
import type { Client } from '../client/client.ts';
import { namePrefix } from '../run/context.ts';
import { matchesPattern, type SelectOptions } from '../run/select.ts';
import type { CaseResult, GenerationSummary } from '../types.ts';
import { type GeneratedCheck, generatedChecks } from './catalog.ts';
import type { GeneratedOperation } from './commands.ts';
import { generatedResults } from './results.ts';

export { type GeneratedCheck, generatedChecks } from './catalog.ts';

/** The seed a run uses when none is given, so that two runs of the same command send the same requests. */
export const DEFAULT_SEED = 1;

/** The generated checks `only` keeps (all when it is empty) minus those `skip` names. */
export function selectGeneratedChecks(options: SelectOptions): GeneratedCheck[] {
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  return generatedChecks().filter(
    (c) =>
      (only.length === 0 || only.some((p) => matchesPattern(p, c.id))) && !skip.some((p) => matchesPattern(p, c.id)),
  );
}

/** Options of {@link runGeneration}. */
export interface GenerationOptions {
  client: Client;
  /** Generated requests per operation (> 0). */
  requests: number;
  seed: number;
  strict: boolean;
  /** Only reads are generated. */
  readOnly: boolean;
  /** The run's name prefix when every generated name must carry it (shared environments); undefined otherwise. */
  prefix: string | undefined;
  /** The generated checks to run and report (selected by `only`/`skip`). */
  checks: readonly GeneratedCheck[];
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
export async function runGeneration(o: GenerationOptions): Promise<GenerationOutcome> {
  const createdBefore = o.client.stats.created;
  const selected = new Set(o.checks.map((c) => c.id));
  const operations = new Set<GeneratedOperation>(
    o.checks.map((c) => c.operationId).filter((op) => !(o.readOnly && op === 'createPet')),
  );
  const statuses = new Map<string, number>();
  const existing = await existingIds(o.client, statuses);
  // Loaded here, not at the top: fast-check and the arbitraries cost about half a second and 200 MB to load,
  // and a run without generated cases must not pay for them.
  const { search } = await import('./search.ts');
  const s = await search({
    seed: o.seed,
    requests: o.requests,
    operations,
    readOnly: o.readOnly,
    strict: o.strict,
    prefix: o.prefix,
    existing,
    fixedIds: [...o.client.stats.createdIds],
    selected: (id) => selected.has(id),
    send: (request) => o.client.send(request),
  });
  for (const [key, n] of s.statuses) statuses.set(key, (statuses.get(key) ?? 0) + n);
  const summary: GenerationSummary = {
    seed: o.seed,
    requestsPerOperation: o.requests,
    sent: { ...s.sent, listPets: s.sent.listPets + 1 },
    shrinkRequests: s.shrinkRequests,
    skipped: [...s.skipped].map(([reason, count]) => ({ reason, count })),
    created: o.client.stats.created - createdBefore,
    readOnly: o.readOnly,
  };
  const results = generatedResults(o.checks, s, {
    seed: o.seed,
    requests: o.requests,
    strict: o.strict,
    readOnly: o.readOnly,
  });
  return { results, summary, statuses };
}

/** What a run asks of generation: ConformanceOptions' fields. */
export interface GenerateRequest extends SelectOptions {
  generate?: number;
  seed?: number;
  prefixNames?: boolean;
}

/** The run generation belongs to. */
export interface GenerateRun {
  client: Client;
  runId: string;
  strict: boolean;
  readOnly: boolean;
}

/** Runs the selected generated checks; undefined when `generate` is 0 or selects none. */
export async function generateForRun(req: GenerateRequest, run: GenerateRun): Promise<GenerationOutcome | undefined> {
  const checks = req.generate ? selectGeneratedChecks(req) : [];
  if (checks.length === 0) return undefined;
  return runGeneration({
    client: run.client,
    requests: req.generate!,
    seed: req.seed ?? DEFAULT_SEED,
    strict: run.strict,
    readOnly: run.readOnly,
    prefix: req.prefixNames ? namePrefix(run.runId) : undefined,
    checks,
  });
}

/** How many generated checks `only`/`skip` left out (0 when generation is off). */
/** The generated check ids a run may select, and how many it selects: none unless `generate` is on. */
export function generatedSelection(req: GenerateRequest): { ids: string[]; selected: number } {
  if (!req.generate) return { ids: [], selected: 0 };
  return { ids: generatedChecks().map((c) => c.id), selected: selectGeneratedChecks(req).length };
}

export function generatedDeselected(req: GenerateRequest): number {
  return req.generate ? generatedChecks().length - selectGeneratedChecks(req).length : 0;
}
