/**
 * The generated properties by id (`generated.<operation>.<property>`): what every generated sequence must hold (a
 * "check" is one assertion of a response, conformance/types.ts; a property is judged by many), each with its
 * level, title and contract section, as the report shows them. The levels
 * follow the table of choices the interface leaves open: a refused valid
 * NewPet is information (name length and characters are the server's call),
 * everything else here is documented.
 * @see ../../docs/contract.md
 */
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import type { Level } from '../types.ts';

/** One generated property as the report describes it. */
export interface GeneratedProperty {
  id: string;
  operationId: 'listPets' | 'createPet' | 'getPet';
  level: Level;
  title: string;
  section: string;
  /** What an advice property rests on. */
  basis?: string;
}

const LIST = `${CONTRACT_SECTIONS.listAnimals}; ${CONTRACT_SECTIONS.limits}`;
const CREATE = `${CONTRACT_SECTIONS.addAnAnimal}; ${CONTRACT_SECTIONS.newPet}`;
const GET = CONTRACT_SECTIONS.getAnAnimal;

const TABLE: [GeneratedProperty['operationId'], string, Level, string, string][] = [
  ['listPets', 'no5xx', 'required', 'never a 5xx, whatever limit and status are sent', LIST],
  [
    'listPets',
    'response',
    'required',
    '200 Pets for valid parameters; a 400 Error or a 200 Pets for invalid ones',
    `${LIST}; ${CONTRACT_SECTIONS.errors}`,
  ],
  [
    'listPets',
    'limit',
    'required',
    'never more items than limit (than the default without one, the maximum for an invalid one)',
    LIST,
  ],
  ['listPets', 'filter', 'required', 'never an item of another status than the one asked for', LIST],
  ['listPets', 'unique', 'required', 'never the same id twice in one list', LIST],
  [
    'listPets',
    'listed',
    'required',
    'a complete list (fewer items than its limit) holds every animal of the sequence that matches it',
    LIST,
  ],
  ['createPet', 'no5xx', 'required', 'never a 5xx, whatever body is sent', CREATE],
  [
    'createPet',
    'response',
    'required',
    'a valid NewPet gets a 201 Pet or a 400 Error',
    `${CREATE}; ${CONTRACT_SECTIONS.errors}`,
  ],
  [
    'createPet',
    'echo',
    'required',
    'an accepted NewPet comes back exactly as sent (every character of the name) with an integer id',
    `${CREATE}; ${CONTRACT_SECTIONS.pet}`,
  ],
  ['createPet', 'newId', 'required', 'each accepted NewPet gets an id no earlier create of the sequence got', CREATE],
  [
    'createPet',
    'fetchable',
    'required',
    'an accepted NewPet is then returned by GET /pets/{id} as sent',
    `${CREATE}; ${GET}`,
  ],
  [
    'createPet',
    'invalidRefused',
    'required',
    'a body that breaks the NewPet schema gets a 400 Error and creates nothing',
    `${CREATE}; ${CONTRACT_SECTIONS.errors}`,
  ],
  [
    'createPet',
    'validRefused',
    'info',
    "a valid NewPet (empty, very long or control-character names included) is accepted rather than refused with 400 (information: the interface does not show any length or character constraints on name, so they are the server's call)",
    CREATE,
  ],
  ['getPet', 'no5xx', 'required', 'never a 5xx, whatever petId is sent', GET],
  [
    'getPet',
    'response',
    'required',
    'a 200 Pet with the id asked for, or a 400 or 404 Error',
    `${GET}; ${CONTRACT_SECTIONS.errors}`,
  ],
  [
    'getPet',
    'lost',
    'required',
    'an animal the sequence created is still returned, unchanged, after every later request',
    `${GET}; ${CONTRACT_SECTIONS.addAnAnimal}`,
  ],
];

/** The basis of each advice property: the contract's own text (none is advice today). */
const BASIS: Record<string, string> = {};

/** Every generated property, in report order. */
export function generatedProperties(): GeneratedProperty[] {
  return TABLE.map(([operationId, property, level, title, section]) => {
    const id = `generated.${operationId}.${property}`;
    return { id, operationId, level, title, section, ...(BASIS[id] ? { basis: BASIS[id] } : {}) };
  });
}
