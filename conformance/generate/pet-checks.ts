/**
 * The checks of generated createPet and getPet requests: the documented
 * answer, the echo, a new id, the animal read back, invalid bodies refused.
 * @see ../../docs/contract.md "Endpoints §2 Add an animal", "Endpoints §3 Get an animal (deprecated)"
 */
import { checkThat, expectResponse } from '../judge/checks.ts';
import type { Exchange } from '../types.ts';
import { asPet, basics, type CreatedAnimal, describeText, type Finding, finding, petDifferences } from './checks.ts';
import type { NewPetValue } from './values.ts';

/**
 * The checks of a generated create of a valid NewPet; `pet` is the accepted animal, when there is one.
 * `takenBy(id)` describes the animal an id was already given to in this run, if any.
 */
export function createFindings(
  ex: Exchange,
  sent: NewPetValue,
  takenBy: (id: number) => string | undefined,
  strict: boolean,
): { findings: Finding[]; pet?: CreatedAnimal } {
  const out = basics('createPet', ex, { statuses: { 201: 'Pet', 400: 'Error' }, strict });
  const refusal = refusalFinding(ex, sent);
  if (refusal) out.push(refusal);
  const json = asPet(ex, 201);
  if (!json) return { findings: out };
  const diffs = petDifferences(json, ex.response!.body, sent);
  const echo = diffs.length === 0 ? 'fields as sent, integer id' : 'the Pet differs from what was sent';
  out.push(finding('createPet', 'echo', checkThat('echo', diffs.length === 0, echo, diffs)));
  const id = Number.isSafeInteger(json.id) ? (json.id as number) : undefined;
  const earlier = id === undefined ? undefined : takenBy(id);
  const message = earlier ? `id ${id} was already given earlier in this run to ${earlier}` : `id ${json.id}`;
  out.push(finding('createPet', 'newId', checkThat('new id', earlier === undefined, message)));
  return { findings: out, pet: { id, sent } };
}

/**
 * Information on a valid NewPet refused with 400 (the interface leaves name length and characters open: "not
 * shown"); none for a categoryId beyond 2^53, which may be refused (or kept exactly) as the interface allows.
 */
function refusalFinding(ex: Exchange, sent: NewPetValue): Finding | undefined {
  const status = ex.response?.status;
  if (status === 201) return finding('createPet', 'validRefused', checkThat('accepted', true, 'accepted'), 'info');
  if (status !== 400) return undefined;
  const category = Object.values(sent).find((v): v is bigint => typeof v === 'bigint');
  if (category !== undefined && (category > 2n ** 53n - 1n || category < -(2n ** 53n) + 1n)) return undefined;
  const message = `a valid NewPet with name ${describeText(String(sent.name))} was refused with 400`;
  return finding('createPet', 'validRefused', checkThat('accepted', false, message), 'info');
}

/** The checks of reading back an animal: `check` is `fetchable` right after its create, `lost` later on. */
export function readBackFindings(
  ex: Exchange,
  animal: CreatedAnimal,
  op: 'createPet' | 'getPet',
  check: string,
  strict: boolean,
): Finding[] {
  // Right after a create, a failed read (a 5xx included) is that create's failure; later on, a 5xx is getPet's.
  const out =
    op === 'createPet'
      ? expectResponse(ex, { statuses: { 200: 'Pet' }, strict }).map((r) => finding(op, check, r))
      : basics(op, ex, { statuses: { 200: 'Pet' }, strict }, check);
  const json = asPet(ex, 200);
  if (!json) return out;
  const diffs = petDifferences(json, ex.response!.body, animal.sent);
  if (json.id !== animal.id) diffs.push(`id: asked for ${animal.id}, got ${JSON.stringify(json.id)}`);
  out.push(
    finding(
      op,
      check,
      checkThat(
        'same animal',
        diffs.length === 0,
        diffs.length === 0 ? `id ${animal.id} as created` : `id ${animal.id} is not the animal created`,
        diffs,
      ),
    ),
  );
  return out;
}

/**
 * The checks of a generated create with an invalid body; `variation` says in words what is wrong with it, `rule`
 * which rule it breaks (its failures are told apart by it).
 */
export function invalidFindings(ex: Exchange, variation: string, rule: string): Finding[] {
  return basics('createPet', ex, { statuses: { 400: 'Error' } }, 'invalidRefused').map((f) =>
    f.id.endsWith('.invalidRefused') ? { ...f, result: { ...f.result, variation, rule } } : f,
  );
}

/** The checks of a generated getPet for a raw petId (any int64 or a malformed segment). */
export function getFindings(ex: Exchange, rawId: string, strict: boolean): Finding[] {
  const out = basics('getPet', ex, { statuses: { 200: 'Pet', 400: 'Error', 404: 'Error' }, strict });
  const json = asPet(ex, 200);
  if (json && /^-?[0-9]+$/.test(rawId) && Number.isSafeInteger(Number(rawId))) {
    out.push(
      finding(
        'getPet',
        'response',
        checkThat('id', json.id === Number(rawId), `asked for id ${rawId}, got ${JSON.stringify(json.id)}`),
      ),
    );
  }
  return out;
}
