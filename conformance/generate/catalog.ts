/**
 * The generated checks by id (`generated.<operation>.<check>`), each with its
 * level, title and contract section, as the report shows them. The levels
 * follow the table of choices the interface leaves open: a refused valid
 * NewPet is information (name length and characters are the server's call),
 * everything else here is documented.
 * @see ../../docs/contract.md
 */
import type { Level } from '../types.ts';

/** One generated check as the report describes it. */
export interface GeneratedCheck {
  id: string;
  operationId: 'listPets' | 'createPet' | 'getPet';
  level: Level;
  title: string;
  section: string;
  /** What an advice check rests on. */
  basis?: string;
}

const LIST = 'Endpoints §1 List animals; Limits';
const CREATE = 'Endpoints §2 Add an animal; Resources NewPet';
const GET = 'Endpoints §3 Get an animal (deprecated)';

const TABLE: [GeneratedCheck['operationId'], string, Level, string, string][] = [
  ['listPets', 'no5xx', 'required', 'never a 5xx, whatever limit and status are sent', LIST],
  [
    'listPets',
    'response',
    'required',
    '200 Pets for valid parameters; a 400 Error or a 200 Pets for invalid ones',
    `${LIST}; Errors`,
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
  ['createPet', 'response', 'required', 'a valid NewPet gets a 201 Pet or a 400 Error', `${CREATE}; Errors`],
  [
    'createPet',
    'echo',
    'required',
    'an accepted NewPet comes back exactly as sent (every character of the name) with an integer id',
    `${CREATE}; Resources Pet`,
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
    `${CREATE}; Errors`,
  ],
  [
    'createPet',
    'validRefused',
    'info',
    "a valid NewPet (empty, very long or control-character names included) is accepted rather than refused with 400 (information: the interface does not show any length or character constraints on name, so they are the server's call)",
    CREATE,
  ],
  ['getPet', 'no5xx', 'required', 'never a 5xx, whatever petId is sent', GET],
  ['getPet', 'response', 'required', 'a 200 Pet with the id asked for, or a 400 or 404 Error', `${GET}; Errors`],
  [
    'getPet',
    'lost',
    'required',
    'an animal the sequence created is still returned, unchanged, after every later request',
    `${GET}; Endpoints §2 Add an animal`,
  ],
];

/** The basis of each advice check: the contract's own text (none is advice today). */
const BASIS: Record<string, string> = {};

/** Every generated check, in report order. */
export function generatedChecks(): GeneratedCheck[] {
  return TABLE.map(([operationId, check, level, title, section]) => {
    const id = `generated.${operationId}.${check}`;
    return { id, operationId, level, title, section, ...(BASIS[id] ? { basis: BASIS[id] } : {}) };
  });
}
