/**
 * What a wrong key must not learn. A refusal that is the same whatever the key (a router that takes no malformed
 * id, before any handler runs) tells a caller without a key nothing, so it is allowed; an answer that depends on
 * what the server holds (a 404 for an unknown id, a 401 for a known one) tells it which animals exist.
 * @see ../../docs/contract.md "Authentication", "Errors" (401: API key missing or invalid)
 */
import { checkErrorBody, checkNo5xx, checkThat, checkTransport } from '../judge/checks.ts';
import type { AuthMode, Case, CaseContext, CaseRequest, CheckResult, Exchange } from '../types.ts';
import { fetchControl } from './controls.ts';
import { UNKNOWN_ID } from './get-pet.ts';

/** A wrong key, the same one every auth case sends. */
export function wrongKey(ctx: CaseContext): AuthMode {
  return { authorization: `Bearer ${ctx.name('wrong-key')}` };
}

/** A body as words (letters, digits, `_`, `-`) and what lies between them, in order. */
function tokens(body: string): string[] {
  return body.split(/([A-Za-z0-9_-]+)/);
}

/**
 * Where two answers to the same request differ, as positions of {@link tokens}: what the server writes anew each
 * time (Mojolicious writes a request id into its router's 404 page). Undefined when they differ in shape.
 */
export function varyingTokens(a: string, b: string): ReadonlySet<number> | undefined {
  const x = tokens(a);
  const y = tokens(b);
  if (x.length !== y.length) return undefined;
  return new Set(x.flatMap((t, i) => (t === y[i] ? [] : [i])));
}

/** Whether two bodies are one page but at the `varying` positions (a request id), words and all elsewhere. */
export function samePageBut(a: string, b: string, varying: ReadonlySet<number>): boolean {
  if (a === b) return true;
  const x = tokens(a);
  const y = tokens(b);
  return x.length === y.length && x.every((t, i) => t === y[i] || varying.has(i));
}

/**
 * The answer to a wrong key on a request that matches no valid input of any operation, when it is neither 400 nor
 * 401: allowed when no key and the right key get the same 4xx, status and body (the request was refused before
 * anything looked at the key or the store), whatever the body is: whether it is an Error is judged once, by the
 * case that owns that request (getPet.malformed), so a router's HTML 404 is one cause, not two. Undefined when that
 * does not hold, so the usual checks judge it.
 */
export async function routerRefusal(
  ctx: CaseContext,
  request: CaseRequest,
  wrong: Exchange,
): Promise<CheckResult[] | undefined> {
  const status = wrong.response?.status;
  if (wrong.error || status === undefined || status < 400 || status >= 500) return undefined;
  const none = await ctx.sendOnce({ ...request, auth: 'none' });
  const right = await ctx.sendOnce({ ...request, auth: 'key' });
  if (none.response?.status !== status || right.response?.status !== status) return undefined;
  const bodies = [wrong, none, right].map((ex) => ex.response!.body);
  if (bodies.some((body) => body !== bodies[0])) {
    // Pages that differ may differ only where the server writes something new to every answer (a request id): a
    // second answer to the right key shows where. A word that follows the key (found, forbidden) does not move.
    const again = await ctx.send({ ...request, auth: 'key' });
    const varying = again.response?.status === status ? varyingTokens(bodies[2]!, again.response.body) : undefined;
    if (!varying || !bodies.every((body) => samePageBut(bodies[0]!, body, varying))) return undefined;
  }
  const what = checkErrorBody(wrong).every((c) => c.ok) ? 'Error' : 'answer';
  return [
    checkTransport(wrong),
    checkNo5xx(wrong),
    checkThat(
      'same whatever the key',
      true,
      `${request.method} ${request.path} gets the same ${status} ${what} with no key, a wrong key and the right key: it was refused before the key or the store was looked at, so it tells a caller without a key nothing`,
    ),
  ];
}

/** The case: a wrong key gets the same answer for an animal that exists and one that does not. */
export function existenceHiddenCase(): Case {
  return {
    id: 'auth.getPet.existenceHidden',
    title:
      'getPet with a wrong key gets the same answer for an existing id and an unknown one (which animals exist does not show without a key)',
    level: 'required',
    section: 'Authentication; Errors',
    operationId: 'getPet',
    covers: [401],
    writes: false,
    async run(ctx) {
      if (!(await fetchControl(ctx))) return;
      const known = (await ctx.knownPetId())!;
      const a = await ctx.sendOnce({ method: 'GET', path: `/pets/${known}`, auth: wrongKey(ctx) });
      const got = a.response?.status;
      // A wrong key that gets the animal is auth.getPet.wrongKey's failure: there is no refusal here to compare.
      if (!a.error && got !== undefined && got < 400) {
        ctx.notApplicable(
          `not applicable: GET /pets/${known} with a wrong key answered ${got}, not a refusal, so there is no refusal to compare with an unknown id's (auth.getPet.wrongKey judges it)`,
        );
        return;
      }
      const b = await ctx.sendOnce({ method: 'GET', path: `/pets/${UNKNOWN_ID}`, auth: wrongKey(ctx) });
      // Only whether the two answers differ is judged here: their status and body are other cases' (wrongKey, missing).
      const broken = [a, b].flatMap((ex) => [checkTransport(ex), ...(ex.response ? [checkNo5xx(ex)] : [])]);
      if (broken.some((c) => !c.ok)) return void ctx.check(...broken.filter((c) => !c.ok));
      // An answer may name the id asked for; anything else in it must not differ.
      const withoutId = (id: string) => (ex: Exchange) =>
        ex.response!.body.replace(new RegExp(`(?<![-0-9.])${id}(?![0-9.])`, 'g'), '{petId}');
      const same =
        a.response!.status === b.response!.status && withoutId(String(known))(a) === withoutId(UNKNOWN_ID)(b);
      ctx.check(
        checkThat(
          'same answer',
          same,
          same
            ? `a wrong key gets ${a.response!.status} for both ids`
            : `with a wrong key, GET /pets/${known} (an existing animal) answered ${a.response!.status} and GET /pets/${UNKNOWN_ID} (no such animal) answered ${b.response!.status}${a.response!.status === b.response!.status ? ' with another body' : ''}: whether an animal exists shows without a valid key (the contract answers 401 when the API key is missing or invalid)`,
        ),
      );
    },
  };
}
