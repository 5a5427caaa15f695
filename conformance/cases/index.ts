/**
 * Every conformance case, in report order.
 */
import type { Case } from '../types.ts';
import { authCases } from './auth.ts';
import { createPetCases } from './create-pet.ts';
import { createPetInvalidCases } from './create-pet-invalid.ts';
import { createPetMediaTypeCases } from './create-pet-media-type.ts';
import { getPetCases } from './get-pet.ts';
import { listPetsCases } from './list-pets.ts';
import { readBackCases } from './read-back.ts';

/** All cases of the suite (a fresh array each call). */
export function allCases(): Case[] {
  const cases = [
    ...listPetsCases(),
    ...createPetCases(),
    ...createPetInvalidCases(),
    ...createPetMediaTypeCases(),
    ...getPetCases(),
    ...authCases(),
    ...readBackCases(),
  ];
  // The cases that run alone, then those that run last, are reported in that order: the report's order is this one.
  const phase = (c: Case) => (c.last ? 2 : c.alone ? 1 : 0);
  return [0, 1, 2].flatMap((p) => cases.filter((c) => phase(c) === p));
}
