/**
 * Table-driven createPet cases: each invalid body in
 * fixtures/invalid-new-pets.json must get an Error (400 unless the row says otherwise).
 * @see ../../docs/contract.md "Endpoints §2 Add an animal", "Errors"
 */

import invalidNewPets from '../../fixtures/invalid-new-pets.json' with { type: 'json' };
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import type { SchemaName } from '../../spec/index.ts';
import { rawBytes } from '../client/bytes.ts';
import { expectResponse } from '../judge/checks.ts';
import type { Case } from '../types.ts';
import { createControl } from './controls.ts';

/** One row of the fixture table. */
export interface InvalidBody {
  id: string;
  title: string;
  contentType: string | null;
  /** Raw body text; `{{name}}` becomes a name carrying the run id. */
  body: string;
  /** The rule of the contract it breaks, in the words the generated bodies use (`status is a boolean`). */
  breaks: string;
  /** Accepted error statuses (default `[400]`). */
  statuses?: number[];
}

/** The table of invalid bodies. */
export function loadInvalidBodies(): InvalidBody[] {
  return (invalidNewPets as { bodies: InvalidBody[] }).bodies;
}

function invalidCase(row: InvalidBody): Case {
  const statuses = row.statuses ?? [400];
  const expected: Partial<Record<number, SchemaName>> = Object.fromEntries(statuses.map((s) => [s, 'Error' as const]));
  return {
    id: `createPet.invalid.${row.id}`,
    title: `${row.title} gets a ${statuses.join(' or ')} Error`,
    level: 'required',
    section: `${CONTRACT_SECTIONS.addAnAnimal}; ${CONTRACT_SECTIONS.errors}`,
    operationId: 'createPet',
    covers: statuses.filter((s) => s === 400),
    writes: true,
    async run(ctx) {
      if (!(await createControl(ctx))) return;
      const body = row.body.replaceAll('{{name}}', ctx.name(`invalid-${row.id}`));
      const ex = await ctx.send({ method: 'POST', path: '/pets', body, contentType: row.contentType });
      // The rule rides on each check: a server that accepts two kinds of invalid body has two causes (causes.ts).
      ctx.check(...expectResponse(ex, { statuses: expected }).map((k) => ({ ...k, rule: row.breaks })));
    },
  };
}

/** The rule a body that is not UTF-8 breaks, in the words the generated bodies use too. */
export const NOT_UTF8_RULE = 'the body is not UTF-8';

/**
 * A valid NewPet sent as `text/plain`: advice, not a requirement. The contract names `application/json` for the
 * body and keeps its 400 for "a body missing required fields or containing invalid values"; it never says another
 * media type is refused, so a server that parses the JSON anyway (Flask's `get_json(force=True)`) breaks no
 * sentence of it. RFC 9110 §15.5.16 is what a refusal would be: 415 (or the contract's 400).
 */
function nonJsonCase(): Case {
  return {
    id: 'createPet.invalid.nonJsonContentType',
    title: 'a valid NewPet sent as text/plain is refused with a 400 or 415 Error rather than parsed',
    level: 'advice',
    warnOnly: true,
    basis:
      'RFC 9110 §15.5.16 (415 Unsupported Media Type for a content type the resource does not take) and the contract, Endpoints §2: the request body is application/json',
    section: 'Endpoints §2 Add an animal; RFC 9110 §15.5.16',
    operationId: 'createPet',
    covers: [400],
    writes: true,
    async run(ctx) {
      if (!(await createControl(ctx))) return;
      const body = JSON.stringify({ name: ctx.name('invalid-nonJsonContentType'), categoryId: 1 });
      const ex = await ctx.send({ method: 'POST', path: '/pets', body, contentType: 'text/plain' });
      // A 5xx still fails (checkNo5xx is required anywhere); a 201 only warns.
      ctx.check(...expectResponse(ex, { statuses: { 400: 'Error', 415: 'Error' } }));
    },
  };
}

/**
 * A body whose bytes are not UTF-8, so not JSON text (RFC 8259 §8.1): a NewPet whose name holds 0xFF 0xFE, bytes
 * no UTF-8 text holds. It is not in the fixture table, whose rows are text. A decoder that throws on them and is
 * not caught (Python's UnicodeDecodeError past an `except json.JSONDecodeError`) answers 500.
 */
function notUtf8Case(): Case {
  const row: InvalidBody = {
    id: 'notUtf8',
    title: 'a body that is not UTF-8 (a name holding the bytes 0xFF 0xFE)',
    contentType: 'application/json',
    body: `{"name": "{{name}}${rawBytes(0xff, 0xfe)}", "categoryId": 1}`,
    breaks: NOT_UTF8_RULE,
  };
  return {
    ...invalidCase(row),
    section: `${CONTRACT_SECTIONS.addAnAnimal}; ${CONTRACT_SECTIONS.errors}; RFC 8259 §8.1`,
  };
}

/** The createPet cases for invalid bodies, one per fixture row, one whose bytes are not UTF-8, and the media type advice. */
export function createPetInvalidCases(): Case[] {
  return [...loadInvalidBodies().map(invalidCase), notUtf8Case(), nonJsonCase()];
}
