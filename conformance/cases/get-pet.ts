/**
 * Cases for `GET /pets/{petId}` (getPet, deprecated): an existing animal, an
 * unknown id, malformed ids, and the deprecation headers (advice).
 * @see ../../docs/contract.md "Endpoints §3 Get an animal (deprecated)", "Versioning"
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import type { Pet } from '../../spec/index.ts';
import { sunsetOf } from '../../spec/index.ts';
import { checkThat, expectResponse, labelled } from '../judge/checks.ts';
import type { Case, CaseContext, CheckResult, Exchange } from '../types.ts';
import { fetchControl } from './controls.ts';
import { checkEcho } from './create-pet.ts';

const SECTION = CONTRACT_SECTIONS.getAnAnimal;
/** A valid int64 (and safe JavaScript integer) no real store is likely to have reached. */
export const UNKNOWN_ID = '9007199254740991';
/**
 * Not an integer, beyond int64 (2^63 exactly, which a saturating parser reads as 2^63 - 1, and far beyond), and a
 * segment whose percent-decoded bytes are not UTF-8 (0xFF).
 */
const MALFORMED = ['abc', '1.5', '9223372036854775808', '99999999999999999999', '%FF'];
/**
 * What a lenient integer parse drops after an existing id (`strconv`-less `parseInt`, `sscanf("%d")`, a float
 * parse): letters, an encoded NUL, an encoded line feed, an exponent. Each makes the segment no int64.
 */
const TRAILING = ['abc', '%00', '%0A', 'e0'];

/**
 * The id with a digit separator (`1_0`, `0_7`): Python's int() and other literal parsers read it as the digits
 * without the `_`, which for `0_7` is the id itself; no int64 in JSON or OpenAPI has one.
 */
function withSeparator(id: number): string {
  const digits = String(id);
  return digits.length > 1 && !digits.startsWith('-') ? `${digits[0]}_${digits.slice(1)}` : `0_${digits}`;
}
const SUNSET_DATE = sunsetOf('getPet')!;
const SUNSET = SUNSET_DATE.getTime();

type GetCase = Omit<Case, 'operationId' | 'section' | 'level' | 'writes'> &
  Partial<Pick<Case, 'section' | 'level' | 'writes'>>;

function getCase(c: GetCase): Case {
  return { operationId: 'getPet', section: SECTION, level: 'required', writes: false, ...c };
}

function checkDeprecation(ex: Exchange): CheckResult[] {
  const h = ex.response?.headers ?? {};
  const deprecation = h.deprecation;
  const sunset = h.sunset;
  const when = sunset === undefined ? NaN : Date.parse(sunset);
  return [
    checkThat(
      'Deprecation',
      deprecation !== undefined,
      deprecation === undefined ? 'no Deprecation header (RFC 9745)' : `Deprecation: ${deprecation}`,
    ),
    checkThat(
      'Sunset',
      when >= SUNSET && when < SUNSET + 86_400_000,
      sunset === undefined ? 'no Sunset header (RFC 8594)' : `Sunset: ${sunset}; expected ${SUNSET_DATE.toUTCString()}`,
    ),
  ];
}

/**
 * Fetches `pet` (once per run: the cases that fetch the same animal read one answer), checks a 200 Pet that is the
 * same animal (`what` names the comparison), and returns the answer's body when it was a 200.
 */
async function fetchAsKnown(ctx: CaseContext, pet: Pet, what: string): Promise<{ id?: unknown } | undefined> {
  const ex = await ctx.sendOnce({ method: 'GET', path: `/pets/${pet.id}` });
  ctx.check(...expectResponse(ex, { statuses: { 200: 'Pet' }, strict: ctx.strict }));
  const got = ex.response?.status === 200 ? (ex.response.json as { id?: unknown }) : undefined;
  if (got) ctx.check(checkEcho(got, pet, what));
  return got;
}

/** The getPet cases. */
export function getPetCases(): Case[] {
  return [
    getCase({
      id: 'getPet.existing',
      title: 'an existing id gets 200 and that Pet',
      covers: [200],
      async run(ctx) {
        const pet = await ctx.existingPet();
        if (!pet) return;
        // The same answer getPet.deprecationHeaders reads for its headers.
        const got = await fetchAsKnown(ctx, pet, 'same animal');
        if (got) ctx.check(checkThat('id', got.id === pet.id, `expected id ${pet.id}, got ${JSON.stringify(got.id)}`));
      },
    }),
    getCase({
      id: 'getPet.listed',
      title: 'the first animal the listing shows gets 200 and that Pet',
      section: `${SECTION}; ${CONTRACT_SECTIONS.listAnimals}`,
      covers: [200],
      async run(ctx) {
        // The shared listing's first animal (the listing is the run's, already sent): in a run that creates,
        // getPet.existing fetches a created one, and a store that loses the first of its animals shows only here.
        const listed = await ctx.listedPet();
        if (listed) await fetchAsKnown(ctx, listed, 'same animal as listed');
      },
    }),
    getCase({
      id: 'getPet.unknown',
      title: 'an id that does not exist gets a 404 Error',
      section: `${SECTION}; ${CONTRACT_SECTIONS.errors}`,
      covers: [404],
      async run(ctx) {
        if (!(await fetchControl(ctx))) return;
        const ex = await ctx.sendOnce({ method: 'GET', path: `/pets/${UNKNOWN_ID}` });
        ctx.check(...expectResponse(ex, { statuses: { 404: 'Error' } }));
      },
    }),
    getCase({
      id: 'getPet.malformed',
      title: 'a malformed id (not an integer, beyond int64) gets a 400 or 404 Error, never a 5xx',
      covers: [404],
      async run(ctx) {
        if (!(await fetchControl(ctx))) return;
        for (const id of MALFORMED) {
          // A wrong-key case compares its refusal of the same request with this answer.
          const ex = await ctx.sendOnce({ method: 'GET', path: `/pets/${id}` });
          ctx.check(...labelled(id, expectResponse(ex, { statuses: { 400: 'Error', 404: 'Error' } })));
        }
      },
    }),
    getCase({
      id: 'getPet.malformed.trailing',
      title:
        'an existing id followed by junk (abc, %00, %0A, e0) or split by a digit separator (1_0) gets a 400 or 404 Error, never that animal: a lenient integer parse reads the id and drops the rest',
      covers: [404],
      async run(ctx) {
        if (!(await fetchControl(ctx))) return;
        const id = await ctx.knownPetId();
        for (const segment of [...TRAILING.map((junk) => `${id}${junk}`), withSeparator(id!)]) {
          const ex = await ctx.send({ method: 'GET', path: `/pets/${segment}` });
          ctx.check(...labelled(segment, expectResponse(ex, { statuses: { 400: 'Error', 404: 'Error' } })));
        }
      },
    }),
    getCase({
      id: 'getPet.deprecationHeaders',
      title: 'responses carry Deprecation (RFC 9745) and Sunset: Thu, 05 Dec 2030 (RFC 8594)',
      section: CONTRACT_SECTIONS.versioning,
      level: 'advice',
      basis:
        'the contract, Endpoints §3 and Versioning: getPet is deprecated with a sunset on 2030-12-05; RFC 9745 §2 (Deprecation) and RFC 8594 §3 (Sunset) are how an answer says so',
      covers: [200],
      async run(ctx) {
        const pet = await ctx.existingPet();
        if (!pet) return;
        const ex = await ctx.sendOnce({ method: 'GET', path: `/pets/${pet.id}` });
        ctx.check(...checkDeprecation(ex));
      },
    }),
  ];
}
