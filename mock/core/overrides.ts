/**
 * The layers that decide and carry out a forced answer: a matching scenario,
 * else the request's `Prefer` header, else chaos; then the delay (the
 * request's own, else the mock's latency), then the forced status, the fault,
 * or the handler's own answer.
 * @see ../../docs/mock.md "Prefer", "Scenarios", "Latency and chaos"
 */
import { forceableFor, forcedResponse, malformedResponse, SERVICE_FAILURES } from './forced.ts';
import {
  type Answer,
  headerValue,
  isShaped,
  type Layer,
  type Next,
  type RequestContext,
  sleep,
  thenAnswer,
} from './layers.ts';
import { parsePrefer } from './prefer.ts';
import { ErrorCode, errorResponse } from './responses.ts';
import type { ScenarioStore } from './scenarios.ts';

/** The first scenario matching an API request answers it. */
export function scenarioLayer(scenarios: ScenarioStore): Layer {
  return (context, next) => {
    if (!isShaped(context) || context.override) return next(context);
    const found = scenarios.take(context.request.method, context.route?.path ?? context.path);
    if (found) {
      context.applied.scenario = found.id;
      context.override = {
        ...(found.status === undefined ? {} : { status: found.status }),
        ...(found.delayMs === undefined ? {} : { delayMs: found.delayMs }),
        ...(found.fault === undefined ? {} : { fault: found.fault }),
        source: `scenario ${found.id}`,
      };
    }
    return next(context);
  };
}

/** `Prefer: code=, delay=, fault=` on an API request; a bad value is a 400 Error naming what is supported. */
export function preferLayer(): Layer {
  return (context, next) => {
    const header = isShaped(context) && !context.override ? headerValue(context.request, 'prefer') : undefined;
    if (header === undefined) return next(context);
    const prefs = parsePrefer(header, forceableFor(context.operation));
    if (typeof prefs === 'string') return errorResponse(400, ErrorCode.invalidPreference, prefs);
    if (prefs.applied === '') return next(context);
    const { applied, ...asked } = prefs;
    context.override = { ...asked, source: `Prefer: ${applied}` };
    context.applied.preferences = applied;
    return thenAnswer(next(context), (response) => {
      response.headers['preference-applied'] = applied;
      return response;
    });
  };
}

/** Options of {@link chaosLayer}. */
interface ChaosOptions {
  /** Share of API requests that fail, 0 to 1. */
  rate: number;
  /** Seeded numbers in [0, 1). */
  random: () => number;
}

/** That share of API requests (none already forced) fails with one of the service failures. */
export function chaosLayer({ rate, random }: ChaosOptions): Layer {
  return (context, next) => {
    if (!isShaped(context) || context.override || rate <= 0) return next(context);
    if (random() < rate) {
      const status = SERVICE_FAILURES[Math.floor(random() * SERVICE_FAILURES.length)]!;
      context.applied.chaos = status;
      context.override = { status, source: `chaos (rate ${rate})` };
    }
    return next(context);
  };
}

/** Options of {@link fetchLayer}. */
interface FetchLayerOptions {
  /** The mock's latency for one API request, in ms (0 when none). */
  latency: () => number;
}

/**
 * The innermost layer, where the pipeline's fetch reaches the operations: waits (the forced delay, else the
 * latency), then answers the forced status or the fault, or fetches from the operations.
 */
export function fetchLayer({ latency }: FetchLayerOptions): Layer {
  const fetchNow = (context: RequestContext, next: Next): Answer => {
    const override = context.override;
    if (override?.status !== undefined)
      return forcedResponse(override.status, override.source, context.operation?.operationId);
    const fault = override?.fault;
    if (fault === 'malformed') return malformedResponse();
    if (fault === 'truncated') return thenAnswer(next(context), (response) => ({ ...response, fault }));
    if (fault !== undefined) return { status: 0, headers: {}, body: '', fault };
    return next(context);
  };
  return (context, next) => {
    if (!isShaped(context)) return next(context);
    const delayMs = context.override?.delayMs ?? latency();
    // No delay, no promise: the answer goes out in the same turn as the request came in.
    return delayMs > 0 ? sleep(delayMs).then(() => fetchNow(context, next)) : fetchNow(context, next);
  };
}
