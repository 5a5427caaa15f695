/**
 * The layer that decides and carries out a forced answer: a matching scenario,
 * else the request's `Prefer` header, else chaos; then the delay (the
 * request's own, else the mock's latency), then the forced status, the fault,
 * or the handler's own answer.
 * @see ../../docs/mock.md "Prefer", "Scenarios", "Latency and chaos"
 */
import { forceableFor, forcedResponse, malformedResponse, SERVICE_FAILURES } from './forced.ts';
import { type Answer, isShaped, type Layer, type Next, type RequestContext, sleep, thenAnswer } from './layers.ts';
import { parsePrefer } from './prefer.ts';
import { ErrorCode, errorResponse } from './responses.ts';
import type { ScenarioStore } from './scenarios.ts';

/** Options of {@link overridesLayer}. */
interface OverridesOptions {
  scenarios: ScenarioStore;
  /** Chaos, when on: the share of API requests that fail (0 to 1) and seeded numbers in [0, 1). */
  chaos?: { rate: number; random: () => number };
  /** The mock's latency for one API request, in ms (0 when none). */
  latency: () => number;
}

/**
 * The one layer that forces answers, innermost, where the pipeline reaches the operations: a matching scenario,
 * else the request's `Prefer` (a bad value is a 400 Error naming what is supported), else chaos decides; then it
 * waits (the forced delay, else the latency) and answers the forced status or the fault, or fetches from the
 * operations. One step, not four: an API request nothing forces costs one call here.
 */
export function overridesLayer({ scenarios, chaos, latency }: OverridesOptions): Layer {
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
    if (!context.override) forceScenario(context, scenarios);
    let preferred: string | undefined;
    if (!context.override) {
      // Read by its name (one property load), joined only when sent more than once.
      const sent = context.request.headers.prefer;
      if (sent !== undefined) {
        const header = Array.isArray(sent) ? sent.join(', ') : sent;
        const prefs = parsePrefer(header, forceableFor(context.operation));
        if (typeof prefs === 'string') return errorResponse(400, ErrorCode.invalidPreference, prefs);
        if (prefs.applied !== '') {
          const { applied, ...asked } = prefs;
          context.override = { ...asked, source: `Prefer: ${applied}` };
          context.applied.preferences = preferred = applied;
        }
      }
    }
    if (chaos && !context.override) forceChaos(context, chaos);
    const delayMs = context.override?.delayMs ?? latency();
    // No delay, no promise: the answer goes out in the same turn as the request came in.
    const answer = delayMs > 0 ? sleep(delayMs).then(() => fetchNow(context, next)) : fetchNow(context, next);
    if (preferred === undefined) return answer;
    const applied = preferred;
    return thenAnswer(answer, (response) => {
      response.headers['preference-applied'] = applied;
      return response;
    });
  };
}

/** The first scenario matching an API request forces its answer. */
function forceScenario(context: RequestContext, scenarios: ScenarioStore): void {
  const found = scenarios.take(context.request.method, context.route?.path ?? context.path);
  if (!found) return;
  context.applied.scenario = found.id;
  context.override = {
    ...(found.status === undefined ? {} : { status: found.status }),
    ...(found.delayMs === undefined ? {} : { delayMs: found.delayMs }),
    ...(found.fault === undefined ? {} : { fault: found.fault }),
    source: `scenario ${found.id}`,
  };
}

/** That share of API requests fails with one of the service failures. */
function forceChaos(context: RequestContext, { rate, random }: { rate: number; random: () => number }): void {
  if (rate <= 0 || random() >= rate) return;
  const status = SERVICE_FAILURES[Math.floor(random() * SERVICE_FAILURES.length)]!;
  context.applied.chaos = status;
  context.override = { status, source: `chaos (rate ${rate})` };
}
