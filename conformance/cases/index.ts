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
  // Phase by phase, as they run: the report's order is this one.
  return PHASES.flatMap((p) => cases.filter((c) => phaseOf(c) === p));
}

/** When a case runs: with the other fixed cases, alone after them (before the generated requests), or last. */
type Phase = 'together' | 'alone' | 'last';

/** The phases in the order a run takes them. */
const PHASES: readonly Phase[] = ['together', 'alone', 'last'];

/** The phase of `c` (`last` wins over `alone`). */
export function phaseOf(c: Case): Phase {
  return c.last ? 'last' : c.alone ? 'alone' : 'together';
}
