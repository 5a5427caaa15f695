/**
 * The Pact file (specification version 4) a mock writes from what its clients
 * relied on: `pact({ consumer, provider })` on every adapter,
 * `GET /__control/pact` and `petstore-mock --pact FILE`. Answers a test forced
 * are left out unless `include` names who forced them; requests the contract
 * refuses are left out and named under `metadata.petstoreMock.skipped`. Every
 * configured key is redacted from the whole file, in every encoding.
 * @see ../../../docs/mock.md "Consumer contracts (Pact)"
 */

import { redactDeep, redactKeys } from '../../../guard/redact.ts';
import { badOption } from '../errors.ts';
import { FORCED_SOURCES, type ForcedSource } from '../layers.ts';
import type { PactInteraction } from './interaction.ts';
import { MAX_PACT_KINDS, type PactRecorder, type SkippedKind } from './recorder.ts';

/** The Pact specification version the file follows. */
const PACT_SPECIFICATION_VERSION = '4.0';

/** The longest consumer or provider name taken (a Pact Broker keeps names in URLs). */
export const MAX_PACT_NAME = 200;

/** Options of `pact()`. */
export interface PactOptions {
  /** The consumer's name, as the Pact Broker knows it (1 to 200 characters, no control character). */
  consumer: string;
  /** The provider's name, as the Pact Broker knows it. */
  provider: string;
  /** Add the answers these forced (`scenario`, `prefer`, `chaos`, `rateLimit`), each under the state `the service answers {status}`. */
  include?: readonly ForcedSource[];
  /**
   * Ask for getPet's `Deprecation` and `Sunset` headers where the client received them (default false): the
   * contract does not declare them, so a provider that honours it may leave them out, and PactFlow's comparison
   * with the OpenAPI document refuses them.
   */
  deprecationHeaders?: boolean;
  /**
   * How request paths are written: `sent` (the default) as the client sent them (`/v1/pets/7`), as pact-js consumer
   * tests write theirs, verified with the provider's origin as base URL; `openapi` below the base path, as the
   * contract's `paths` are (`/pets/7`), for PactFlow's comparison with the OpenAPI document, whose validator reads
   * an OpenAPI 3 document's paths without its server's `/v1` (such a pact is verified with a base URL ending in `/v1`).
   */
  paths?: PactPaths;
}

/** How a pact writes its request paths: see {@link PactOptions.paths}. */
export type PactPaths = 'sent' | 'openapi';

/** A Pact V4 file, as `pact()` returns it (`JSON.stringify` it to write the file). */
export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: {
    pactSpecification: { version: string };
    petstoreMock: {
      /** What to know about this file: nothing recorded, answers forced by tests left out, kinds not kept. */
      warnings: string[];
      /** Requests left out of the contract, by kind, and why. */
      skipped: SkippedKind[];
    };
  };
}

/** The options checked; a PetstoreMockError (`PETSTORE_MOCK_BAD_OPTION`) names the bad one. */
export function checkPactOptions(options: unknown): Required<PactOptions> {
  if (typeof options !== 'object' || options === null)
    throw badOption('pact(options)', ': options must be { consumer, provider, include? }');
  const {
    consumer,
    provider,
    include = [],
    deprecationHeaders = false,
    paths = 'sent',
  } = options as Partial<PactOptions>;
  for (const [name, value] of [
    ['consumer', consumer],
    ['provider', provider],
  ] as const) {
    if (typeof value !== 'string' || value.trim() === '') throw badOption(name, 'must be a name, got none');
    if (value.length > MAX_PACT_NAME)
      throw badOption(name, `must be at most ${MAX_PACT_NAME} characters, got ${value.length}`);
    if (/[\u0000-\u001f\u007f]/.test(value)) throw badOption(name, 'must hold no control character');
  }
  if (!Array.isArray(include) || include.some((s) => !(FORCED_SOURCES as readonly unknown[]).includes(s)))
    throw badOption('include', `must list some of ${FORCED_SOURCES.join(', ')}`);
  if (typeof deprecationHeaders !== 'boolean') throw badOption('deprecationHeaders', 'must be true or false');
  if (paths !== 'sent' && paths !== 'openapi')
    throw badOption('paths', `must be sent or openapi, got ${String(paths)}`);
  return { consumer: consumer!, provider: provider!, include, deprecationHeaders, paths };
}

/** Writes the pact from what `recorder` holds; `keys` are redacted from all of it. */
export function buildPact(recorder: PactRecorder, options: PactOptions, keys: readonly string[]): PactFile {
  const { consumer, provider, include, deprecationHeaders, paths } = checkPactOptions(options);
  const recorded = recorder.interactions();
  const kept = recorded.filter((r) => r.forced === undefined || include.includes(r.forced));
  const forcedOut = recorded.filter((r) => !kept.includes(r)).reduce((n, r) => n + r.count, 0);
  const warnings: string[] = [];
  if (recorded.length === 0 && recorder.skipped().length === 0)
    warnings.push('nothing was recorded: no client request reached the API, so the pact holds no interaction');
  if (forcedOut > 0)
    warnings.push(
      `${forcedOut} answer(s) forced by scenarios, Prefer, chaos or the rate limit were left out (include adds them)`,
    );
  if (recorder.overflow > 0)
    warnings.push(`${recorder.overflow} request(s) of a new kind were not kept: at most ${MAX_PACT_KINDS} kinds are`);
  const skipped = recorder.skipped();
  if (skipped.length > 0)
    warnings.push(`${skipped.length} kind(s) of request the contract refuses were left out (see skipped)`);
  const seen = new Map<string, number>();
  const interactions = kept.map(({ interaction: recordedOne }) => {
    const headersKept = deprecationHeaders ? recordedOne : withoutDeprecation(recordedOne);
    const interaction = paths === 'sent' ? headersKept : belowBasePath(headersKept);
    // Pact needs each description (with its states) once: a second of the same words is numbered.
    const n = (seen.get(interaction.description) ?? 0) + 1;
    seen.set(interaction.description, n);
    return n === 1 ? interaction : { ...interaction, description: `${interaction.description} (${n})` };
  });
  const file: PactFile = {
    consumer: { name: consumer },
    provider: { name: provider },
    interactions,
    metadata: {
      pactSpecification: { version: PACT_SPECIFICATION_VERSION },
      petstoreMock: { warnings, skipped: skipped.map((s) => ({ ...s })) },
    },
  };
  // A copy whatever it holds: the file is handed out, and must not share objects with the recorder.
  return redactDeep(file, (text) => redactKeys(text, keys), { copy: true });
}

/** The interaction without getPet's `Deprecation` and `Sunset` headers and their rules. */
function withoutDeprecation(interaction: PactInteraction): PactInteraction {
  const { headers, matchingRules } = interaction.response;
  if (headers?.Deprecation === undefined && headers?.Sunset === undefined) return interaction;
  const drop = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).filter(([name]) => name !== 'Deprecation' && name !== 'Sunset'));
  const response = { ...interaction.response, headers: drop(headers) };
  if (matchingRules?.header) response.matchingRules = { ...matchingRules, header: drop(matchingRules.header) };
  return { ...interaction, response };
}

/** The interaction with its path below the base path, as the contract's `paths` are (`/v1/pets/7` as `/pets/7`). */
function belowBasePath(interaction: PactInteraction): PactInteraction {
  const path = interaction.request.path.replace(/^\/v1(?=\/)/, '');
  return { ...interaction, request: { ...interaction.request, path } };
}
