/**
 * Authentication cases for every operation: a missing header, a wrong key,
 * the Basic scheme and an empty token each get a 401 Error, also when the
 * request is otherwise invalid; advice on WWW-Authenticate and scheme case.
 * @see ../../docs/contract.md "Authentication"; RFC 6750 §3; RFC 9110 §11.1
 */
import { checkStatus, checkThat, expectResponse } from '../judge/checks.ts';
import type { AuthMode, Case, CaseContext, CaseRequest } from '../types.ts';

const SECTION = 'Authentication';

interface Operation {
  operationId: string;
  /** A request that would succeed with the right key. */
  valid(ctx: CaseContext): Promise<CaseRequest>;
  /** A request that is invalid apart from its credentials; it can never create anything. */
  invalid: CaseRequest;
  writes: boolean;
}

const OPERATIONS: Operation[] = [
  {
    operationId: 'listPets',
    valid: async () => ({ method: 'GET', path: '/pets' }),
    invalid: { method: 'GET', path: '/pets?limit=0&status=adopted' },
    writes: false,
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
  },
  {
    operationId: 'getPet',
    valid: async () => ({ method: 'GET', path: '/pets/1' }),
    invalid: { method: 'GET', path: '/pets/abc' },
    writes: false,
  },
];

interface Variant {
  id: string;
  title: string;
  auth(ctx: CaseContext): AuthMode;
}

const VARIANTS: Variant[] = [
  { id: 'missing', title: 'no Authorization header', auth: () => 'none' },
  { id: 'wrongKey', title: 'a wrong key', auth: (ctx) => ({ authorization: `Bearer ${ctx.name('wrong-key')}` }) },
  { id: 'basic', title: 'the key sent with the Basic scheme', auth: () => 'basic' },
  { id: 'emptyToken', title: 'Bearer with an empty token', auth: () => ({ authorization: 'Bearer ' }) },
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
      const ex = await ctx.send({ ...(await op.valid(ctx)), auth: v.auth(ctx) });
      ctx.check(...expectResponse(ex, { statuses: { 401: 'Error' } }));
    },
  };
}

/**
 * A wrong key and an otherwise invalid request: the interface says 401 for the one and 400 for the other, not
 * which wins when both hold, so either is accepted (an Express app with express.json() before its auth answers
 * 400); anything else (a lookup's 404, a 200, a 5xx) fails. Answering 401 first is advice: see the case below.
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
      const ex = await ctx.send({ ...op.invalid, auth: { authorization: `Bearer ${ctx.name('wrong-key')}` } });
      ctx.check(...expectResponse(ex, { statuses: { 400: 'Error', 401: 'Error' } }));
    },
  };
}

/** Advice: the key is checked first, so an unauthenticated caller learns nothing about validation. */
function prefers401Case(op: Operation): Case {
  return {
    id: `auth.${op.operationId}.beforeValidation.prefers401`,
    title: `${op.operationId} with a wrong key and an otherwise invalid request gets 401 rather than a validation error (a caller without a key learns nothing)`,
    level: 'advice',
    section: SECTION,
    operationId: op.operationId,
    covers: [401],
    writes: false,
    async run(ctx) {
      const ex = await ctx.send({ ...op.invalid, auth: { authorization: `Bearer ${ctx.name('wrong-key')}` } });
      ctx.check(...expectResponse(ex, { statuses: { 401: 'Error' } }));
    },
  };
}

function adviceCases(): Case[] {
  return [
    {
      id: 'auth.wwwAuthenticate',
      title: 'a 401 carries a WWW-Authenticate challenge for the Bearer scheme (RFC 6750 §3)',
      level: 'advice',
      section: `${SECTION}; RFC 6750 §3`,
      operationId: 'listPets',
      covers: [401],
      writes: false,
      async run(ctx) {
        const ex = await ctx.send({ method: 'GET', path: '/pets', auth: 'none' });
        const challenge = ex.response?.headers['www-authenticate'];
        ctx.check(
          checkStatus(ex, [401]),
          checkThat(
            'WWW-Authenticate',
            /^\s*bearer\b/i.test(challenge ?? ''),
            challenge === undefined ? 'no WWW-Authenticate header' : `WWW-Authenticate: ${challenge}`,
          ),
        );
      },
    },
    {
      id: 'auth.bearerLowercase',
      title: 'the scheme name is case-insensitive: "bearer <key>" is accepted (RFC 9110 §11.1)',
      level: 'advice',
      section: `${SECTION}; RFC 9110 §11.1`,
      operationId: 'listPets',
      covers: [200],
      writes: false,
      async run(ctx) {
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
    ...adviceCases(),
  ];
}
