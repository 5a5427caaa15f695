/**
 * What a pact is written from: one interaction per kind of request the client
 * relied on (the first of each kind kept, the rest counted) and the kinds left
 * out, recorded in the journal's step (mock.ts). Bounded: at most
 * {@link MAX_PACT_KINDS} kinds are kept, so memory stays flat however long the
 * run; `reset()` leaves it, so that it spans a whole test run, as coverage does.
 */
import type { ForcedSource, RequestContext } from '../layers.ts';
import type { ApiResponse } from '../responses.ts';
import { classify, type KindParts } from './classify.ts';
import { buildInteraction, type PactInteraction } from './interaction.ts';

/** The most kinds of interaction (and, apart, of requests left out) one mock keeps. */
export const MAX_PACT_KINDS = 500;

/** How many kinds found last the recorder compares before it looks one up: the mixed load's four, all found so. */
const RECENT_KINDS = 4;

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

/** The kinds seen, found again by their parts one Map level at a time (no key string made per request). */
type KindTree = Map<unknown, KindTree | RecordedInteraction>;

function findKind(tree: KindTree, parts: KindParts): RecordedInteraction | undefined {
  let node: KindTree | undefined = tree;
  for (let i = 0; i < parts.length - 1 && node !== undefined; i++) node = node.get(parts[i]) as KindTree | undefined;
  return node?.get(parts[parts.length - 1]) as RecordedInteraction | undefined;
}

function sameParts(a: KindParts, b: KindParts): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

function addKind(tree: KindTree, parts: KindParts, kind: RecordedInteraction): void {
  let node = tree;
  for (let i = 0; i < parts.length - 1; i++) {
    let child = node.get(parts[i]) as KindTree | undefined;
    if (child === undefined) node.set(parts[i], (child = new Map()));
    node = child;
  }
  node.set(parts[parts.length - 1], kind);
}

/** Makes an empty recorder; `removed` are the operations past their sunset (`asOf`), which count as no operation. */
export function createPactRecorder(removed?: ReadonlySet<string>): PactRecorder {
  let tree: KindTree = new Map();
  let kinds: RecordedInteraction[] = [];
  let skipped = new Map<string, SkippedKind>();
  let overflow = 0;
  // The kinds found last, by their parts: a client repeats a few requests over and over, often in turn (a listing,
  // a pet, a create), and comparing five parts with a few costs less than five lookups. A find takes the oldest slot.
  const recentParts: (KindParts | undefined)[] = Array.from({ length: RECENT_KINDS }, () => undefined);
  const recentKinds: (RecordedInteraction | undefined)[] = Array.from({ length: RECENT_KINDS }, () => undefined);
  let last = 0;
  let oldest = 0;
  const recentKind = (parts: KindParts): RecordedInteraction | undefined => {
    // The kind found last first: a client repeating one request compares once.
    const lastParts = recentParts[last];
    if (lastParts !== undefined && sameParts(parts, lastParts)) return recentKinds[last];
    for (let i = 0; i < RECENT_KINDS; i++) {
      const known = recentParts[i];
      if (i !== last && known !== undefined && sameParts(parts, known)) {
        last = i;
        return recentKinds[i];
      }
    }
    const found = findKind(tree, parts);
    if (found) {
      recentParts[oldest] = parts;
      recentKinds[oldest] = found;
      last = oldest;
      oldest = oldest === RECENT_KINDS - 1 ? 0 : oldest + 1;
    }
    return found;
  };
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
      const known = recentKind(what.parts);
      if (known) known.count++;
      else if (kinds.length >= MAX_PACT_KINDS) overflow++;
      else {
        const kind: RecordedInteraction = {
          interaction: buildInteraction(context, response, what.forced),
          ...(what.forced ? { forced: what.forced } : {}),
          count: 1,
        };
        addKind(tree, what.parts, kind);
        kinds.push(kind);
      }
    },
    interactions: () => [...kinds],
    skipped: () => [...skipped.values()],
    get overflow() {
      return overflow;
    },
    clear() {
      recentParts.fill(undefined);
      recentKinds.fill(undefined);
      last = 0;
      oldest = 0;
      tree = new Map();
      kinds = [];
      skipped = new Map();
      overflow = 0;
    },
  };
}
