import { describe, expect, it } from 'vitest';
import { loadSpec } from './index.ts';
import { schemaOutline } from './outline.ts';

describe('schemaOutline', () => {
  it('states each schema as the contract writes it: fields, types, optional ones and enumerations', () => {
    expect(schemaOutline('Error')).toBe('Error {code: string, message: string, status: integer}');
    expect(schemaOutline('Pet')).toBe(
      'Pet {name: string, categoryId: integer, id: integer, status?: "available" | "pending" | "sold"}',
    );
    expect(schemaOutline('Pets')).toMatch(/^Pets: a JSON array of Pet \{/);
  });

  it('follows the document: a field the document makes required loses its "?"', () => {
    const doc = structuredClone(loadSpec());
    doc.components.schemas.NewPet.required.push('status');
    expect(schemaOutline('NewPet', doc)).toBe(
      'NewPet {name: string, categoryId: integer, status: "available" | "pending" | "sold"}',
    );
  });
});
