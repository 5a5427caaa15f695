/**
 * Authentication cases for every operation: a missing header, a wrong key,
 * the Basic scheme, the key with no scheme or after `Bearer:`, an empty token, and keys one edit from the right one (a
 * character changed, left out or added, the letters' case) each get a 401
 * Error, also when the request is otherwise invalid; advice on
 * WWW-Authenticate and scheme case.
 * @see ../../docs/contract.md "Authentication"; RFC 6750 §3; RFC 9110 §11.1
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { NEAR_KEY_WORDS, type NearKey } from '../client/near-key.ts';
import { checkNo5xx, checkStatus, checkThat, checkTransport, expectResponse } from '../judge/checks.ts';
import type { AuthMode, Case, CaseContext, CaseRequest } from '../types.ts';
import { existenceHiddenCase, routerRefusal, wrongKey } from './auth-leaks.ts';
import { createControl, listingControl } from './controls.ts';
import { UNKNOWN_ID } from './get-pet.ts';

const SECTION = CONTRACT_SECTIONS.authentication;

interface Operation {
  operationId: string;
  /** A request that would succeed with the right key. */
  valid(ctx: CaseContext): Promise<CaseRequest>;
  /** A request that is invalid apart from its credentials; it can never create anything. */
  invalid: CaseRequest;
  writes: boolean;
  /** The control: the operation accepts the run's key (see controls.ts); false when it does not, the case not applicable. */
  control(ctx: CaseContext): Promise<boolean>;
}

const KEY_ACCEPTED = "the run's key must be accepted here before a refusal of other credentials can mean anything";

const OPERATIONS: Operation[] = [
  {
    operationId: 'listPets',
    valid: async () => ({ method: 'GET', path: '/pets' }),
    invalid: { method: 'GET', path: '/pets?limit=0&status=adopted' },
    writes: false,
    control: listingControl,
  },
  {
    operationId: 'createPet',
    async valid(ctx) {
      return {
        method: 'POST',
        path: '/pets',
        body: JSON.stringify({ name: ctx.name('unauthenticated'), categoryId: await ctx.categoryId() }),
      };
    },
    // Malformed JSON: no server can create an animal from it, so this runs in read-only mode too.
    invalid: { method: 'POST', path: '/pets', body: '{"name":' },
    writes: true,
    control: (ctx) => (ctx.readOnly ? listingControl(ctx) : createControl(ctx)),
  },
  {
    operationId: 'getPet',
    valid: async (ctx) => ({ method: 'GET', path: `/pets/${(await ctx.knownPetId()) ?? UNKNOWN_ID}` }),
    invalid: { method: 'GET', path: '/pets/abc' },
    writes: false,
    async control(ctx) {
      const id = await ctx.knownPetId();
      // With no animal known to exist, a 404 with the key still shows the key was accepted.
      return id === undefined
        ? ctx.control({ method: 'GET', path: `/pets/${UNKNOWN_ID}` }, [404], KEY_ACCEPTED)
        : ctx.control({ method: 'GET', path: `/pets/${id}` }, [200], KEY_ACCEPTED);
    },
  },
];

interface Variant {
  id: string;
  title: string;
  auth(ctx: CaseContext): AuthMode;
  /** The near key it sends, which the run's key may not have (no letter to change the case of). */
  nearKey?: NearKey;
}

/**
 * "When the key is missing or invalid, the service answers 401 with an Error body" (contract, Authentication): a key
 * one edit from the right one is invalid, and keys are compared exactly, so each is refused. A server that compares
 * only the lengths accepts the changed character and the other case, one that compares a prefix accepts the key
 * cut short or run on, one that ignores case accepts the other case.
 */
const NEAR_KEY_VARIANTS: { id: string; nearKey: NearKey }[] = [
  { id: 'keyLastChanged', nearKey: 'lastChanged' },
  { id: 'keyLastMissing', nearKey: 'lastMissing' },
  { id: 'keyOneMore', nearKey: 'oneMore' },
  { id: 'keyOtherCase', nearKey: 'otherCase' },
];

/** Why the run's key has no near key of a kind. */
const NO_NEAR_KEY: Record<NearKey, string> = {
  lastChanged: 'the run has no key',
  lastMissing: "the run's key is one character: without it the token is empty, which auth.*.emptyToken sends",
  oneMore: 'the run has no key',
  otherCase: "the run's key has no letter, so it has no other case",
};

const VARIANTS: Variant[] = [
  { id: 'missing', title: 'no Authorization header', auth: () => 'none' },
  { id: 'wrongKey', title: 'a wrong key', auth: (ctx) => ({ authorization: `Bearer ${ctx.name('wrong-key')}` }) },
  { id: 'basic', title: 'the key sent with the Basic scheme', auth: () => 'basic' },
  // The contract's form is `Authorization: Bearer <API_KEY>`: the key with no scheme is no Bearer credential (RFC 6750
  // §2.1). A server that strips an optional `Bearer ` before comparing accepts it.
  { id: 'noScheme', title: 'the key sent alone, without a scheme', auth: () => 'bare' },
  // `Bearer:<key>` is one token, no scheme and credentials (a colon is no token character, RFC 9110 §5.6.2): a server
  // that reads the key as the header from its eighth character on, not checking the seven before, accepts it.
  { id: 'schemeNoSpace', title: 'the key after "Bearer:" (no space after the scheme)', auth: () => 'colon' },
  { id: 'emptyToken', title: 'Bearer with an empty token', auth: () => ({ authorization: 'Bearer ' }) },
  // A wrong key stays invalid whatever the scheme's case: a server that takes "bearer" as a second, unchecked path fails.
  {
    id: 'lowercaseWrongKey',
    title: 'a wrong key under the scheme in lowercase ("bearer")',
    auth: (ctx) => ({ authorization: `bearer ${ctx.name('wrong-key')}` }),
  },
  // The scheme is a whole token (RFC 9110 §11.1, §11.6.2): "xbearer" is not Bearer, so even the right key under it is no key.
  { id: 'schemePrefixed', title: 'the key under the scheme "xbearer"', auth: () => 'prefixedScheme' },
  ...NEAR_KEY_VARIANTS.map(({ id, nearKey }) => ({
    id,
    title: `${NEAR_KEY_WORDS[nearKey]} (keys are compared exactly)`,
    auth: () => ({ nearKey }),
    nearKey,
  })),
];

function variantCase(op: Operation, v: Variant): Case {
  return {
    id: `auth.${op.operationId}.${v.id}`,
    title: `${op.operationId} with ${v.title} gets a 401 Error`,
    level: 'required',
    section: SECTION,
    operationId: op.operationId,
    covers: [401],
    writes: op.writes,
    async run(ctx) {
      if (v.nearKey && !ctx.nearKeys.includes(v.nearKey))
        return void ctx.notApplicable(`not applicable: ${NO_NEAR_KEY[v.nearKey]}`);
      if (!(await op.control(ctx))) return;
      // Every one of these must be refused whatever came before: other cases may judge the same answer.
      const ex = await ctx.sendOnce({ ...(await op.valid(ctx)), auth: v.auth(ctx) });
      ctx.check(...expectResponse(ex, { statuses: { 401: 'Error' } }));
    },
  };
}

/**
 * A wrong key and an otherwise invalid request: the interface says 401 for the one and 400 for the other, not
 * which wins when both hold, so either is accepted (an Express app with express.json() before its auth answers
 * 400), and so is a refusal that is the same whatever the key (a router's 404 for a malformed id: auth-leaks.ts);
 * anything else (a 200, a 5xx, a 404 that only a wrong key gets) fails.
 */
function beforeValidationCase(op: Operation): Case {
  return {
    id: `auth.${op.operationId}.beforeValidation`,
    title: `${op.operationId} with a wrong key and an otherwise invalid request is refused with a 401 or 400 Error`,
    level: 'required',
    section: SECTION,
    operationId: op.operationId,
    covers: [401],
    writes: false,
    async run(ctx) {
      if (!(await op.control(ctx))) return;
      const ex = await ctx.sendOnce({ ...op.invalid, auth: wrongKey(ctx) });
      const status = ex.response?.status;
      const router = status === 400 || status === 401 ? undefined : await routerRefusal(ctx, op.invalid, ex);
      ctx.check(...(router ?? expectResponse(ex, { statuses: { 400: 'Error', 401: 'Error' } })));
    },
  };
}

/**
 * Information, not advice: the interface leaves the order of the two checks open and no RFC prefers either, so a
 * 400 first is only noted. It judges the status alone: the 401's body is the required cases' to judge.
 */
function prefers401Case(op: Operation): Case {
  return {
    id: `auth.${op.operationId}.beforeValidation.prefers401`,
    title: `${op.operationId} with a wrong key and an otherwise invalid request gets 401 rather than a validation error (a caller without a key learns nothing)`,
    level: 'info',
    section: SECTION,
    operationId: op.operationId,
    covers: [401],
    writes: false,
    async run(ctx) {
      if (!(await op.control(ctx))) return;
      const ex = await ctx.sendOnce({ ...op.invalid, auth: wrongKey(ctx) });
      ctx.check(checkTransport(ex), ...(ex.response ? [checkNo5xx(ex), checkStatus(ex, [401])] : []));
    },
  };
}

function adviceCases(): Case[] {
  return [
    {
      id: 'auth.wwwAuthenticate',
      title:
        'a 401 for a missing key and for a wrong key carries a WWW-Authenticate challenge for the Bearer scheme (RFC 6750 §3)',
      level: 'advice',
      section: `${SECTION}; RFC 6750 §3`,
      basis:
        'RFC 9110 §15.5.2 (a 401 MUST carry a WWW-Authenticate challenge) and RFC 6750 §3 (the Bearer challenge); the contract names the scheme bearer',
      operationId: 'listPets',
      covers: [401],
      writes: false,
      async run(ctx) {
        const sent = [
          // The answers auth.listPets.missing and auth.listPets.wrongKey judge: this case reads their challenge.
          { what: 'no key', ex: await ctx.sendOnce({ method: 'GET', path: '/pets', auth: 'none' }) },
          { what: 'a wrong key', ex: await ctx.sendOnce({ method: 'GET', path: '/pets', auth: wrongKey(ctx) }) },
        ];
        // Only a 401 has a challenge to read; the required cases judge the status. A 5xx fails this case too (the
        // runner's `no 5xx`), as the server's error it is, not as a missing challenge.
        const judged = sent.filter(({ ex }) => ex.response?.status === 401);
        if (sent.some(({ ex }) => (ex.response?.status ?? 0) >= 500) && judged.length === 0) return;
        if (judged.length === 0) {
          const got = sent.map(({ what, ex }) => `${what}: ${ex.response?.status ?? ex.error?.code}`).join(', ');
          ctx.notApplicable(
            `not applicable: GET /pets answered ${got}, not 401, so there is no challenge to read (auth.listPets.missing and auth.listPets.wrongKey judge the status)`,
          );
          return;
        }
        ctx.check(
          ...judged.map(({ what, ex }) => {
            const challenge = ex.response?.headers['www-authenticate'];
            return checkThat(
              `WWW-Authenticate (${what})`,
              /^\s*bearer\b/i.test(challenge ?? ''),
              challenge === undefined ? `no WWW-Authenticate header for ${what}` : `WWW-Authenticate: ${challenge}`,
            );
          }),
        );
      },
    },
    {
      id: 'auth.bearerLowercase',
      title: 'the scheme name is case-insensitive: "bearer <key>" is accepted (RFC 9110 §11.1)',
      level: 'advice',
      section: `${SECTION}; RFC 9110 §11.1`,
      basis: 'RFC 9110 §11.1: the authentication scheme name is case-insensitive',
      operationId: 'listPets',
      covers: [200],
      writes: false,
      async run(ctx) {
        if (!(await listingControl(ctx))) return;
        const wrongKey = { authorization: `Bearer ${ctx.name('wrong-key')}` };
        const refused = await ctx.control(
          { method: 'GET', path: '/pets?limit=1', auth: wrongKey },
          [401],
          'a wrong key must be refused before accepting "bearer <key>" can mean anything',
        );
        if (!refused) return;
        const ex = await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'lowercase' });
        ctx.check(checkStatus(ex, [200]));
      },
    },
  ];
}

/** The authentication cases. */
export function authCases(): Case[] {
  return [
    ...OPERATIONS.flatMap((op) => [
      ...VARIANTS.map((v) => variantCase(op, v)),
      beforeValidationCase(op),
      prefers401Case(op),
    ]),
    existenceHiddenCase(),
    ...adviceCases(),
  ];
}
