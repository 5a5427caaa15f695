import { describe, expect, it } from 'vitest';
import { canonicalPath, matchesTemplate, operationMatcher } from './match.ts';

/** The operationId a method and path address under `basePath`, through the one matcher. */
const operationOf = (method: string, path: string, basePath = '/v1') =>
  operationMatcher(basePath).operation(method, path)?.operationId;

describe('the operation matcher', () => {
  it('answers which operation a method and path address, HEAD as GET', () => {
    expect(operationOf('GET', '/v1/pets')).toBe('listPets');
    expect(operationOf('HEAD', '/v1/pets')).toBe('listPets');
    expect(operationOf('POST', '/v1/pets')).toBe('createPet');
    expect(operationOf('GET', '/v1/pets/7')).toBe('getPet');
    expect(operationOf('DELETE', '/v1/pets/7')).toBeUndefined();
    expect(operationOf('GET', '/v1/pets/')).toBeUndefined();
    expect(operationOf('GET', '/v1/pets/7/x')).toBeUndefined();
    expect(operationOf('GET', '/v2/pets')).toBeUndefined();
    expect(operationOf('GET', '/pets')).toBeUndefined();
    expect(operationOf('GET', '/pets', '')).toBe('listPets');
    expect(operationOf('GET', '/api/v1/pets/1', '/api/v1')).toBe('getPet');
  });

  it('decodes each segment on its own: %70ets is pets, an escaped slash never separates', () => {
    const route = operationMatcher('/v1').route('/v1/%70ets/a%2Fb');
    expect(route).toMatchObject({ template: '/pets/{petId}', path: '/v1/pets/a%2Fb', params: { petId: 'a/b' } });
    expect(operationOf('GET', '/v1/%70ets')).toBe('listPets');
    expect(operationOf('GET', '/%76%31/pets')).toBe('listPets');
    expect(operationOf('GET', '/v1%2Fpets')).toBeUndefined();
    expect(operationOf('GET', '/v1/pets/%E0%A4%A')).toBeUndefined();
  });

  it('lists what a route allows, as an Allow header does', () => {
    expect(operationMatcher().route('/v1/pets')?.allow).toEqual(['GET', 'HEAD', 'POST']);
    expect(operationMatcher().route('/v1/pets/1')?.allow).toEqual(['GET', 'HEAD']);
  });

  it('writes one canonical spelling and matches templates against it', () => {
    expect(canonicalPath('/v1/%70ets/%37')).toBe('/v1/pets/7');
    expect(canonicalPath('/v1/pets/a%2fb%25')).toBe('/v1/pets/a%2Fb%25');
    expect(canonicalPath('/v1/pets/%zz')).toBe('/v1/pets/%zz');
    expect(matchesTemplate('/v1/pets/{petId}', '/v1/pets/a%2Fb')).toBe(true);
    expect(matchesTemplate('/v1/pets/{petId}', '/v1/pets/')).toBe(false);
    expect(matchesTemplate('/v1/pets/{petId}', '/v1/pets/1/2')).toBe(false);
    expect(matchesTemplate('/v1/pets', '/v1/pets')).toBe(true);
  });
});
