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
      ctx.check(...expectResponse(ex, { statuses: expected }));
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
  };
  return {
    ...invalidCase(row),
    section: `${CONTRACT_SECTIONS.addAnAnimal}; ${CONTRACT_SECTIONS.errors}; RFC 8259 §8.1`,
  };
}

/** The createPet cases for invalid bodies, one per fixture row, and one whose bytes are not UTF-8. */
export function createPetInvalidCases(): Case[] {
  return [...loadInvalidBodies().map(invalidCase), notUtf8Case()];
}
