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
  return [
    ...listPetsCases(),
    ...createPetCases(),
    ...createPetInvalidCases(),
    ...createPetMediaTypeCases(),
    ...getPetCases(),
    ...authCases(),
    ...readBackCases(),
  ];
}
