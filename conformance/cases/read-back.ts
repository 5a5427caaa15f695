/**
 * The read-back: every animal the run created is fetched again once every other request is done, and judged
 * against the schema and against what was sent. A server that changed what it stored (a status written as null,
 * a name re-encoded) is caught even when no listing reached that id, and one that stored what it should have
 * refused shows what it kept.
 * @see ../../docs/contract.md "Endpoints §2 Add an animal", "Endpoints §3 Get an animal (deprecated)"
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { getValidator } from '../../spec/index.ts';
import { checkThat, expectResponse, labelled } from '../judge/checks.ts';
import type { Case, CaseContext, CheckResult, CreatedRecord, Exchange } from '../types.ts';
import { excerpt } from '../words.ts';

const FIELDS = ['name', 'categoryId', 'status'] as const;

/** How many read-backs are in flight at once: the suite's default concurrency. */
const READ_BACK_AT_ONCE = 8;

/** What was sent, parsed: a valid NewPet, or why the contract required it refused; undefined when not kept. */
function sentBody(c: CreatedRecord): { pet: Record<string, unknown> } | { invalid: true } | undefined {
  if (c.sent === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(c.sent);
  } catch {
    return { invalid: true };
  }
  return getValidator('NewPet')(value) ? { pet: value as Record<string, unknown> } : { invalid: true };
}

/**
 * The fields the create answered as sent and the store keeps otherwise. A field the answer already changed is the
 * create's own finding (one root, one cause); a categoryId beyond 2^53 is not compared (JSON.parse rounds both).
 */
function differences(
  sent: Record<string, unknown>,
  answered: Record<string, unknown>,
  got: Record<string, unknown>,
): string[] {
  const diffs: string[] = [];
  for (const field of FIELDS) {
    const value = sent[field];
    if (value === undefined || answered[field] !== value) continue;
    if (field === 'categoryId' && !Number.isSafeInteger(value)) continue;
    if (got[field] !== value)
      diffs.push(`${field}: sent ${JSON.stringify(value)}, stored ${JSON.stringify(got[field])}`);
  }
  return diffs;
}

/** The checks of one read-back: the answer (a Pet, or a 404 Error that is a failure), then the fields as sent. */
function judgeOne(c: CreatedRecord, ex: Exchange, strict: boolean): CheckResult[] {
  const where = `id ${c.id} (create #${c.order}, ${c.request})`;
  const sent = sentBody(c);
  const refused = sent !== undefined && 'invalid' in sent;
  const judged = labelled(`id ${c.id}`, expectResponse(ex, { statuses: { 200: 'Pet' }, strict }));
  // What a server kept of a body it should have refused is no Pet as often as not: that is the create's cause (one
  // root, one cause), said below as information, never a schema failure of its own.
  const checks = refused ? judged.filter((k) => !/: schema Pet/.test(k.name)) : judged;
  const res = ex.response;
  if (res?.status === 404)
    return [
      ...checks.filter((k) => k.ok),
      checkThat(
        'read back',
        false,
        `${where} answered 201, then GET /pets/${c.id} answered 404: the animal added was not kept`,
      ),
    ];
  if (res?.status !== 200) return checks;
  if (refused)
    // The create's own case fails for accepting it; this says what the server kept.
    checks.push({
      name: `id ${c.id}: stored`,
      ok: true,
      info: true,
      message: `${where} sent a body the contract requires refused (${excerpt(c.sent ?? '', 120)}): stored as ${excerpt(res.body, 200)}`,
    });
  else if (sent && typeof res.json === 'object' && res.json !== null) {
    const diffs = differences(sent.pet, c.answered, res.json as Record<string, unknown>);
    checks.push(
      checkThat(
        `id ${c.id}: as sent`,
        diffs.length === 0,
        diffs.length === 0 ? 'fields as sent' : 'an animal answered 201 as sent is stored otherwise',
        diffs.length === 0 ? undefined : [where, ...diffs],
      ),
    );
  }
  return checks;
}

async function readBack(ctx: CaseContext): Promise<void> {
  const created = [...ctx.created()];
  if (created.length === 0) {
    ctx.skip(
      ctx.readOnly
        ? 'read-only: the run created nothing to read back'
        : 'prerequisite failed: the run created no animal (no 2xx to POST /pets with an integer id) to read back',
    );
    return;
  }
  // Nothing else runs now (the case is last): fetch a few at a time, answers kept in the order created.
  const answers: Array<[CreatedRecord, Exchange]> = new Array(created.length);
  let next = 0;
  const fetchNext = async (): Promise<void> => {
    for (let i = next++; i < created.length; i = next++) {
      const c = created[i]!;
      answers[i] = [c, await ctx.send({ method: 'GET', path: `/pets/${c.id}` })];
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_BACK_AT_ONCE, created.length) }, fetchNext));
  const gone = answers.filter(([, ex]) => ex.response?.status === 404 || ex.response?.status === 410);
  // Every one missing is getPet removed (after its sunset) or a store that keeps nothing: the createPet and
  // generated `lost` checks judge the latter; here nothing can be read back.
  if (gone.length === answers.length) {
    ctx.notApplicable(
      `not applicable: GET /pets/{id} answered ${gone[0]![1].response!.status} for every one of the ${answers.length} animals the run created`,
    );
    return;
  }
  for (const [c, ex] of answers) ctx.check(...judgeOne(c, ex, ctx.strict));
}

/** The read-back case: runs last, once, over every animal the run created (at most MAX_READ_BACK of them). */
export function readBackCases(): Case[] {
  return [
    {
      id: 'getPet.readBack',
      title:
        'every animal the run created is fetched again at the end of the run: a Pet, with the fields as sent (a created animal no listing reached is judged too)',
      operationId: 'getPet',
      section: `${CONTRACT_SECTIONS.addAnAnimal}; ${CONTRACT_SECTIONS.getAnAnimal}`,
      level: 'required',
      writes: false,
      last: true,
      covers: [200],
      run: readBack,
    },
  ];
}
