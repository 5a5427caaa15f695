/**
 * Cases for `POST /pets` (createPet) with valid bodies: 201 and the echoed
 * Pet, distinct ids, the animal then readable, and a client-sent `id` that
 * never overwrites another animal. The run shares at most four creates.
 * @see ../../docs/contract.md "Endpoints §2 Add an animal", "Resources NewPet", "Resources Pet"
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { listPetsLimit, type Pet, petStatuses } from '../../spec/index.ts';
import { bodyArray, checkThat, expectResponse, labelled } from '../judge/checks.ts';
import type { Case, CaseContext, CaseRequest, CheckResult, CreatedKind, Creation } from '../types.ts';
import { createControl } from './controls.ts';

const SECTION = CONTRACT_SECTIONS.addAnAnimal;

type CreateCase = Omit<Case, 'operationId' | 'writes' | 'section' | 'level'> &
  Partial<Pick<Case, 'section' | 'level' | 'operationId'>>;

function createCase(c: CreateCase): Case {
  return { operationId: 'createPet', writes: true, section: SECTION, level: 'required', ...c };
}

/** Compares the fields of `pet` with what was sent (status only when it was sent). */
export function checkEcho(pet: unknown, sent: Creation['sent'], label = 'echo'): CheckResult {
  const p = (pet ?? {}) as Record<string, unknown>;
  const diffs: string[] = [];
  for (const field of ['name', 'categoryId', 'status'] as const) {
    if (field === 'status' && sent.status === undefined) continue;
    if (p[field] !== sent[field])
      diffs.push(`${field}: sent ${JSON.stringify(sent[field])}, got ${JSON.stringify(p[field])}`);
  }
  if (!Number.isInteger(p.id)) diffs.push(`id: expected an integer, got ${JSON.stringify(p.id)}`);
  return checkThat(
    label,
    diffs.length === 0,
    diffs.length === 0 ? 'fields as sent, integer id' : 'the Pet differs from what was sent',
    diffs,
  );
}

/** Checks a shared create: 201, a Pet, fields as sent. */
async function checkCreation(ctx: CaseContext, kind: CreatedKind): Promise<void> {
  const c = await ctx.creation(kind);
  ctx.check(...expectResponse(c.exchange, { statuses: { 201: 'Pet' }, strict: ctx.strict }));
  if (c.exchange.response?.status === 201) ctx.check(checkEcho(c.exchange.response.json, c.sent));
}

async function requirePet(ctx: CaseContext, kind: CreatedKind): Promise<Pet | undefined> {
  const c = await ctx.creation(kind);
  if (!c.pet) ctx.skip(`prerequisite failed: creating the ${kind} animal gave no id: ${c.missing}`);
  return c.pet;
}

async function fetchable(ctx: CaseContext): Promise<void> {
  const pet = await requirePet(ctx, 'available');
  if (!pet) return;
  const ex = await ctx.send({ method: 'GET', path: `/pets/${pet.id}` });
  ctx.check(...expectResponse(ex, { statuses: { 200: 'Pet' }, strict: ctx.strict }));
  if (ex.response?.status === 200)
    ctx.check(checkEcho(ex.response.json, pet, 'same animal'), sameId(ex.response.json, pet.id));
}

function sameId(json: unknown, id: number): CheckResult {
  const got = (json as { id?: unknown } | undefined)?.id;
  return checkThat('id', got === id, `expected id ${id}, got ${JSON.stringify(got)}`);
}

async function listed(ctx: CaseContext): Promise<void> {
  let complete = 0;
  const max = listPetsLimit().maximum;
  for (const status of petStatuses()) {
    const pet = await requirePet(ctx, status);
    if (!pet) return;
    const ex = await ctx.send({ method: 'GET', path: `/pets?status=${status}&limit=${max}` });
    const checks = expectResponse(ex, { statuses: { 200: 'Pets' }, strict: ctx.strict });
    const items = bodyArray(ex) as { id?: unknown }[] | undefined;
    // Only a list shorter than its limit is known to be complete.
    if (items && items.length < max) {
      complete++;
      checks.push(
        checkThat(
          'contains',
          items.some((p) => p?.id === pet.id),
          `id ${pet.id} ${items.some((p) => p?.id === pet.id) ? 'listed' : `missing from ${items.length} items`}`,
        ),
      );
    }
    ctx.check(...labelled(`status=${status}`, checks));
  }
  if (complete === 0) ctx.skip(`every filtered list had ${max} items, so none is known to be complete`);
}

async function clientId(ctx: CaseContext): Promise<void> {
  const existing = await requirePet(ctx, 'noStatus');
  if (!existing) return;
  const body = { id: existing.id, name: ctx.name('client-id'), categoryId: existing.categoryId, status: 'sold' };
  const post = await ctx.send({ method: 'POST', path: '/pets', body: JSON.stringify(body) });
  ctx.check(
    ...labelled('create with id', expectResponse(post, { statuses: { 201: 'Pet', 400: 'Error' }, strict: ctx.strict })),
  );
  if (post.response?.status === 201) {
    const got = (post.response.json as { id?: unknown } | undefined)?.id;
    ctx.check(
      checkThat(
        'new id',
        got !== existing.id,
        `the service answered with id ${JSON.stringify(got)}; the existing animal has id ${existing.id}`,
      ),
    );
  }
  const get = await ctx.send({ method: 'GET', path: `/pets/${existing.id}` });
  ctx.check(...labelled('existing animal', expectResponse(get, { statuses: { 200: 'Pet' }, strict: ctx.strict })));
  if (get.response?.status === 200)
    ctx.check(checkEcho(get.response.json, existing, 'unchanged'), sameId(get.response.json, existing.id));
}

/** 2^53 + 1: a valid int64 that a JSON number parsed as a double cannot hold. */
const BIG_CATEGORY = '9007199254740993';

async function bigCategory(ctx: CaseContext): Promise<void> {
  // A 400 is accepted here, so only a server that accepts a valid body can show it refused this one for its number.
  if (!(await createControl(ctx))) return;
  const body = `{"name":${JSON.stringify(ctx.name('big-category'))},"categoryId":${BIG_CATEGORY}}`;
  const ex = await ctx.send({ method: 'POST', path: '/pets', body });
  ctx.check(...expectResponse(ex, { statuses: { 201: 'Pet', 400: 'Error' }, strict: ctx.strict }));
  // JSON.parse rounds the number, so the exact value is looked for in the raw text.
  if (ex.response?.status === 201) {
    const kept = new RegExp(`"categoryId"\\s*:\\s*${BIG_CATEGORY}(?![0-9.eE])`).test(ex.response.body);
    ctx.check(
      checkThat(
        'exact',
        kept,
        kept
          ? `categoryId ${BIG_CATEGORY} kept exactly`
          : `categoryId ${BIG_CATEGORY} was not echoed exactly (rounded?)`,
      ),
    );
  }
}

/**
 * Numbers whose JSON text is not exactly an integer, though a double reads one: 2^52 + 0.5 (read as 2^52) and a
 * value too small for a double (read as 0). A server that parses JSON numbers as doubles stores them changed.
 */
const INEXACT_CATEGORIES = ['4503599627370496.5', '1e-400'];

/**
 * 100 - 10^-17 (read as 100) last in a body whose other members hold `"categoryId"` too: nested in an unknown
 * member, and inside strings, with escaped quotes and a space before the colon (RFC 8259 §2, §7). A server that
 * finds the number by scanning the text rather than by the JSON structure reads the wrong one and stores this one
 * rounded. The unknown members may make a server refuse the body: a 400 is accepted as for every inexact number.
 */
const NESTED_INEXACT = '99.99999999999999999';

/** The body that hides {@link NESTED_INEXACT} behind other `categoryId`s, for an animal named `name`. */
function nestedInexactBody(name: string): string {
  const decoy = `${name} "categoryId": 1, [\\"]`;
  return `{"name":${JSON.stringify(decoy)},"tags" : [ [1, 2], {"categoryId": 7, "x": "]}"} ], "categoryId" : ${NESTED_INEXACT}, "note": "categoryId"}`;
}

/** What follows a member name: the colon and a number's raw text. */
const MEMBER_NUMBER = /\s*:\s*(-?[0-9][0-9.eE+-]*)/y;

/**
 * The raw JSON text of the top-level member `field` when it is a number, or undefined. Members of that name nested
 * deeper or written inside strings are not it: a server may keep and echo the unknown members of the nested body
 * above (the architecture notes' table), and its answer then holds `"categoryId": 7` before the one judged.
 */
export function rawNumber(body: string, field: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      let end = i + 1;
      while (end < body.length && body[end] !== '"') end += body[end] === '\\' ? 2 : 1;
      MEMBER_NUMBER.lastIndex = end + 1;
      const number = depth === 1 ? MEMBER_NUMBER.exec(body) : null;
      if (number && body.slice(i + 1, end) === field) return number[1];
      i = end;
    }
  }
  return undefined;
}

async function inexactCategory(ctx: CaseContext): Promise<void> {
  // As for bigCategory: a 400 means something only where a valid body gets its 201.
  if (!(await createControl(ctx))) return;
  const bodies = INEXACT_CATEGORIES.map((text) => ({
    text,
    label: `categoryId ${text}`,
    body: `{"name":${JSON.stringify(ctx.name('inexact-category'))},"categoryId":${text}}`,
  }));
  bodies.push({
    text: NESTED_INEXACT,
    label: `categoryId ${NESTED_INEXACT} after other "categoryId" members`,
    body: nestedInexactBody(ctx.name('inexact-category')),
  });
  for (const { text, label, body } of bodies) {
    const ex = await ctx.send({ method: 'POST', path: '/pets', body });
    const checks = expectResponse(ex, { statuses: { 201: 'Pet', 400: 'Error' }, strict: ctx.strict });
    if (ex.response?.status === 201) {
      const got = rawNumber(ex.response.body, 'categoryId');
      checks.push(
        checkThat(
          'exact',
          got === text,
          got === text
            ? `categoryId ${text} kept exactly`
            : `categoryId ${text} was stored changed: the answer reads ${got ?? 'no number'}`,
        ),
      );
    }
    ctx.check(...labelled(label, checks));
  }
}

/**
 * Valid int64 values a server gets wrong: 0 (a check of the value's truth, `!body.categoryId`, takes it for missing)
 * and 10^15 (beyond a 32-bit integer's 2^31 - 1, held exactly by a double).
 */
const INT64_CATEGORIES = [0, 1_000_000_000_000_000];

/**
 * The create of categoryId `value` written as an integer. A space after the colon, as JSON allows (RFC 8259 §2), and
 * a name with `1.0` in it: a server that scans the text for numbers not written as integers reads this body too,
 * and must still find nothing wrong with it. One request a run: the notation case reads its status as its control.
 */
function int64Request(ctx: CaseContext, value: number): CaseRequest {
  const name = `${ctx.name(`category-${value}`)} v1.0`;
  return { method: 'POST', path: '/pets', body: `{"name":${JSON.stringify(name)},"categoryId": ${value}}` };
}

async function int64Category(ctx: CaseContext): Promise<void> {
  for (const value of INT64_CATEGORIES) {
    const ex = await ctx.sendOnce(int64Request(ctx, value));
    const checks = expectResponse(ex, { statuses: { 201: 'Pet' }, strict: ctx.strict });
    if (ex.response?.status === 201) {
      const got = (ex.response.json as { categoryId?: unknown } | undefined)?.categoryId;
      checks.push(
        checkThat(
          'exact',
          got === value,
          got === value
            ? `categoryId ${value} kept exactly`
            : `categoryId ${value} was stored changed: the answer reads ${JSON.stringify(got)}`,
        ),
      );
    }
    ctx.check(...labelled(`categoryId ${value}`, checks));
  }
}

/**
 * The int64 values above written as JSON numbers that are not plain integers: a signed exponent with a leading zero,
 * a fraction of zeros, a fraction times an exponent (RFC 8259 §6 allows each). OpenAPI 3.1's schemas
 * are JSON Schema 2020-12, whose `integer` is any number with a zero fractional part (Validation §6.1.1), so each is
 * the integer it denotes. Refusing one is advice (a typed decoder such as Go's `encoding/json` into an int64
 * refuses `1e15`); storing another value than the one denoted (`1e15` read as 1 by a parse that stops at `e`) is a
 * failure whatever the level: what was accepted was changed.
 */
const NOTATIONS: readonly { text: string; value: number }[] = [
  { text: '1E+015', value: 1e15 },
  { text: '1000000000000000.000', value: 1e15 },
  { text: '0.000000000000000001e33', value: 1e15 },
  { text: '0.0', value: 0 },
];

async function integerNotation(ctx: CaseContext): Promise<void> {
  for (const value of new Set(NOTATIONS.map((n) => n.value))) {
    const written = await ctx.control(
      int64Request(ctx, value),
      [201],
      `categoryId ${value} written as an integer must get 201 before a refusal of it in another notation can mean anything`,
    );
    if (!written) return;
  }
  for (const [i, { text, value }] of NOTATIONS.entries()) {
    // A name of its own each: a server that takes a repeated name for the same animal is another case's finding.
    const body = `{"name":${JSON.stringify(ctx.name(`category-notation-${i + 1}`))},"categoryId":${text}}`;
    const ex = await ctx.send({ method: 'POST', path: '/pets', body });
    const checks = expectResponse(ex, { statuses: { 201: 'Pet' }, strict: ctx.strict });
    const got = (ex.response?.json as { categoryId?: unknown } | undefined)?.categoryId;
    // A categoryId that is no number is the schema check's finding (above), not a changed value.
    if (ex.response?.status === 201 && typeof got === 'number') {
      const kept = checkThat(
        'kept',
        got === value,
        got === value
          ? `categoryId ${text} kept as ${value}`
          : `categoryId ${text} (the integer ${value}) was stored changed: the answer reads ${JSON.stringify(got)}`,
      );
      checks.push(kept.ok ? kept : { ...kept, required: true });
    }
    ctx.check(...labelled(`categoryId ${text}`, checks));
  }
}

async function distinctIds(ctx: CaseContext): Promise<void> {
  const a = await requirePet(ctx, 'available');
  const b = await requirePet(ctx, 'noStatus');
  if (a && b) ctx.check(checkThat('distinct ids', a.id !== b.id, `ids ${a.id} and ${b.id}`));
}

/** The createPet cases with valid bodies. */
export function createPetCases(): Case[] {
  return [
    createCase({
      id: 'createPet.full',
      title: 'a body with name, categoryId and status gets 201 and the Pet as sent, with an integer id',
      covers: [201],
      run: (ctx) => checkCreation(ctx, 'available'),
    }),
    createCase({
      id: 'createPet.noStatus',
      title: 'a body without status gets 201 and the Pet as sent',
      covers: [201],
      run: (ctx) => checkCreation(ctx, 'noStatus'),
    }),
    ...petStatuses().map((s) =>
      createCase({
        id: `createPet.status.${s}`,
        title: `status ${s} is accepted and echoed`,
        covers: [201],
        run: (ctx) => checkCreation(ctx, s),
      }),
    ),
    createCase({
      id: 'createPet.distinctIds',
      title: 'two creates get different ids',
      covers: [201],
      run: distinctIds,
    }),
    createCase({
      id: 'createPet.fetchable',
      title: 'a created animal is returned by GET /pets/{id} as created',
      section: `${SECTION}; ${CONTRACT_SECTIONS.getAnAnimal}`,
      covers: [201],
      run: fetchable,
    }),
    createCase({
      id: 'createPet.listed',
      title: 'a created animal appears in a complete filtered list',
      section: `${SECTION}; ${CONTRACT_SECTIONS.listAnimals}`,
      covers: [201],
      run: listed,
    }),
    createCase({
      id: 'createPet.categoryId.beyond2pow53',
      title: 'a categoryId beyond 2^53 gets a 400 Error or is kept exactly, never rounded',
      section: CONTRACT_SECTIONS.newPet,
      covers: [201, 400],
      run: bigCategory,
    }),
    createCase({
      id: 'createPet.categoryId.inexact',
      title: `a categoryId whose JSON text is not exactly an integer (${INEXACT_CATEGORIES.join(', ')}) gets a 400 Error or is kept exactly, never rounded`,
      section: CONTRACT_SECTIONS.newPet,
      covers: [201, 400],
      run: inexactCategory,
    }),
    createCase({
      id: 'createPet.categoryId.int64',
      title: `categoryId ${INT64_CATEGORIES.join(' and ')} (int64: zero, and beyond a 32-bit integer) each get 201 and are kept exactly`,
      section: CONTRACT_SECTIONS.newPet,
      covers: [201],
      run: int64Category,
    }),
    createCase({
      id: 'createPet.categoryId.notation',
      title: `categoryId written ${NOTATIONS.map((n) => n.text).join(', ')} (integers in other notations) each get 201 and are kept as the integer they denote`,
      section: CONTRACT_SECTIONS.newPet,
      level: 'advice',
      basis:
        'the contract: categoryId is an "integer" (int64), which in OpenAPI 3.1, JSON Schema 2020-12, is any number with a zero fractional part (JSON Schema Validation §6.1.1); advice, as RFC 8259 §6 lets a decoder limit the numbers it accepts',
      covers: [201],
      run: integerNotation,
    }),
    createCase({
      id: 'createPet.clientId.noOverwrite',
      title: 'a client-sent id never overwrites an existing animal',
      section: CONTRACT_SECTIONS.pet,
      covers: [201, 400],
      run: clientId,
    }),
  ];
}
