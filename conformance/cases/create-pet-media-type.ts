/**
 * createPet cases on how the body's media type is labelled: `application/json` in upper case or with a parameter
 * is still `application/json`, and a body with no label at all is refused with an Error or read, never a crash.
 * @see ../../docs/contract.md "Endpoints §2 Add an animal"
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { expectResponse, labelled } from '../judge/checks.ts';
import type { Case, CaseContext } from '../types.ts';
import { createControl } from './controls.ts';
import { checkEcho } from './create-pet.ts';

const SECTION = CONTRACT_SECTIONS.addAnAnimal;

/**
 * `application/json` as RFC 9110 §8.3.1 lets a client write it: type and subtype in any case ("case-insensitive"),
 * whitespace before a parameter (`parameters = *( OWS ";" OWS [ parameter ] )`), and a charset parameter, which
 * RFC 8259 §11 says "really has no effect on compliant recipients". Each is the contract's application/json: 201.
 */
const JSON_LABELS = ['APPLICATION/JSON ; charset=utf-8', 'Application/JSON'];

async function jsonLabels(ctx: CaseContext): Promise<void> {
  for (const [i, label] of JSON_LABELS.entries()) {
    const sent = { name: ctx.name(`json-label-${i + 1}`), categoryId: 1 };
    const ex = await ctx.send({ method: 'POST', path: '/pets', body: JSON.stringify(sent), contentType: label });
    const checks = expectResponse(ex, { statuses: { 201: 'Pet' }, strict: ctx.strict });
    if (ex.response?.status === 201) checks.push(checkEcho(ex.response.json, sent));
    ctx.check(...labelled(`Content-Type: ${label}`, checks));
  }
}

/**
 * A valid NewPet with no Content-Type: RFC 9110 §8.3 lets the server assume application/octet-stream (a 400 or 415
 * Error, as for another media type) or look at the data (201); a 5xx, a type check that fails on the missing
 * header, is neither.
 */
async function unlabelled(ctx: CaseContext): Promise<void> {
  if (!(await createControl(ctx))) return;
  const body = JSON.stringify({ name: ctx.name('no-content-type'), categoryId: 1 });
  const ex = await ctx.send({ method: 'POST', path: '/pets', body, contentType: null });
  ctx.check(...expectResponse(ex, { statuses: { 201: 'Pet', 400: 'Error', 415: 'Error' }, strict: ctx.strict }));
}

/** The createPet cases on the body's media type label. */
export function createPetMediaTypeCases(): Case[] {
  const base = { operationId: 'createPet', writes: true, level: 'required' } as const;
  return [
    {
      ...base,
      id: 'createPet.jsonLabels',
      title: `a NewPet labelled application/json in another case, with whitespace and a charset parameter (${JSON_LABELS.join(', ')}) gets 201 and the Pet as sent`,
      section: `${SECTION}; RFC 9110 §8.3.1; RFC 8259 §11`,
      covers: [201],
      run: jsonLabels,
    },
    {
      ...base,
      id: 'createPet.noContentType',
      title: 'a valid NewPet sent without Content-Type gets 201 and the Pet, or a 400 or 415 Error, never a 5xx',
      section: `${SECTION}; RFC 9110 §8.3`,
      covers: [201, 400],
      run: unlabelled,
    },
  ];
}
