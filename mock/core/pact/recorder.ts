/**
 * What a pact is written from: one interaction per kind of request the client
 * relied on (the first of each kind kept, the rest counted) and the kinds left
 * out, recorded by a layer beside the journal. Bounded: at most
 * {@link MAX_PACT_KINDS} kinds are kept, so memory stays flat however long the
 * run; `reset()` leaves it, so that it spans a whole test run, as coverage does.
 */
import { type Layer, observingLayer, type RequestContext } from '../layers.ts';
import type { ApiResponse } from '../responses.ts';
import { classify, type ForcedSource } from './classify.ts';
import { buildInteraction, type PactInteraction } from './interaction.ts';

/** The most kinds of interaction (and, apart, of requests left out) one mock keeps. */
export const MAX_PACT_KINDS = 500;

/** One kind of interaction: its first example, and how often it was seen. */
export interface RecordedInteraction {
  interaction: PactInteraction;
  /** Who forced the answer, when a test did. */
  forced?: ForcedSource;
  count: number;
}

/** One kind of request left out of every pact, and why. */
export interface SkippedKind {
  /** `listPets 400: limit must be an integer from 1 to 100`. */
  kind: string;
  reason: string;
  count: number;
  /** The first such request, `GET /v1/pets?limit=0` (keys are redacted when the pact is written). */
  example: string;
}

/** The recorded kinds of one mock. */
export interface PactRecorder {
  record(context: RequestContext, response: ApiResponse): void;
  interactions(): readonly RecordedInteraction[];
  skipped(): readonly SkippedKind[];
  /** Requests of a new kind not kept, the limit being reached. */
  readonly overflow: number;
  clear(): void;
}

/** Makes an empty recorder; `removed` are the operations past their sunset (`asOf`), which count as no operation. */
export function createPactRecorder(removed?: ReadonlySet<string>): PactRecorder {
  let kinds = new Map<string, RecordedInteraction>();
  let skipped = new Map<string, SkippedKind>();
  let overflow = 0;
  return {
    record(context, response) {
      const what = classify(context, response, removed);
      if (what.kind === 'ignored') return;
      if (what.kind === 'skipped') {
        const known = skipped.get(what.key);
        if (known) known.count++;
        else if (skipped.size >= MAX_PACT_KINDS) overflow++;
        else {
          const example = `${context.request.method} ${context.path}${context.query ? `?${context.query}` : ''}`;
          skipped.set(what.key, { kind: what.key, reason: what.reason, count: 1, example: example.slice(0, 2048) });
        }
        return;
      }
      const known = kinds.get(what.key);
      if (known) known.count++;
      else if (kinds.size >= MAX_PACT_KINDS) overflow++;
      else
        kinds.set(what.key, {
          interaction: buildInteraction(context, response, what.forced),
          ...(what.forced ? { forced: what.forced } : {}),
          count: 1,
        });
    },
    interactions: () => [...kinds.values()],
    skipped: () => [...skipped.values()],
    get overflow() {
      return overflow;
    },
    clear() {
      kinds = new Map();
      skipped = new Map();
      overflow = 0;
    },
  };
}

/** Records every API answer into `recorder`; placed beside the journal, so it sees the answer as sent. */
export function pactLayer(recorder: PactRecorder): Layer {
  return observingLayer((context, response) => recorder.record(context, response));
}
