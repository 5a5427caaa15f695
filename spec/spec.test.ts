import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { artifactUrl, readSpecYaml, renderArtifacts } from './build/generate.ts';
import { applyMockOverlay } from './build/profile.ts';
import { SPEC_PATH } from './files.ts';
import {
  getValidator,
  listOperations,
  listPetsLimit,
  loadProfile,
  loadSpec,
  type OpenApiDocument,
  petStatuses,
  sunsetOf,
} from './index.ts';

const text = readFileSync(SPEC_PATH, 'utf8');

describe('spec/petstore.openapi.yaml', () => {
  it('is valid against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(loadSpec()) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes Spectral spectral:oas with no errors, and no warnings but the missing contact', async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset(spectralRulesets.oas as never);
    const results = await spectral.run(new spectralCore.Document(text, spectralParsers.Yaml, SPEC_PATH));
    const shown = results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message} (severity ${r.severity})`);
    // Severity 0 is error, 1 warning. The interface names no contact, and inventing one would not be faithful.
    expect(shown.filter((_, i) => results[i]!.severity === 0)).toEqual([]);
    expect(results.filter((r) => r.severity === 1).map((r) => r.code)).toEqual(['info-contact']);
  });

  it('matches every committed artifact in spec/generated/ and docs/contract.md (npm run spec:generate)', async () => {
    const artifacts = await renderArtifacts();
    expect(Object.keys(artifacts).sort()).toEqual([
      'docs/contract.md',
      'spec/generated/document.ts',
      'spec/generated/profile.ts',
      'spec/generated/sections.ts',
      'spec/generated/types.ts',
      'spec/generated/validators.ts',
    ]);
    for (const [path, text] of Object.entries(artifacts)) {
      expect(readFileSync(artifactUrl(path), 'utf8'), path).toBe(text);
    }
    expect(loadSpec()).toEqual(readSpecYaml());
  });
});

describe('the contract as the interface states it', () => {
  const operations = Object.fromEntries(listOperations().map((op) => [op.operationId, op]));

  it('has exactly the three documented operations with exactly the documented responses', () => {
    expect(Object.keys(operations).sort()).toEqual(['createPet', 'getPet', 'listPets']);
    expect(operations.listPets).toMatchObject({
      method: 'GET',
      path: '/pets',
      statuses: [200, 401],
      deprecated: false,
    });
    expect(operations.createPet).toMatchObject({
      method: 'POST',
      path: '/pets',
      statuses: [201, 400, 401],
      deprecated: false,
    });
    expect(operations.getPet).toMatchObject({
      method: 'GET',
      path: '/pets/{petId}',
      statuses: [200, 401, 404],
      deprecated: true,
    });
    expect(operations.getPet!.extensions['x-sunset']).toBe('2030-12-05');
    expect(sunsetOf('getPet')?.toUTCString()).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(sunsetOf('listPets')).toBeUndefined();
  });

  it('requires the bearer scheme on every operation, and servers end in /v1', () => {
    const doc = loadSpec();
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const op of listOperations())
      expect(doc.paths[op.path]![op.method.toLowerCase()].security).toEqual([{ bearerAuth: [] }]);
    // The local mock first (a generated client's default base address), then the interface's two environments,
    // with no server variables (orval's validator refuses them; swagger-typescript-api would use `{productionHost}` literally).
    expect(doc.servers?.map((s) => s.url)).toEqual([
      'http://127.0.0.1:4010/v1',
      'https://petstore.example.com/v1',
      'https://staging.petstore.example.com/v1',
    ]);
    expect(doc.servers?.some((s) => 'variables' in s || s.url.includes('{'))).toBe(false);
  });

  it('documents limit 1..100 default 20 and the status enumeration on listPets', () => {
    const params = loadSpec().paths['/pets']!.get.parameters as { name: string; schema: object }[];
    expect(params.find((p) => p.name === 'limit')!.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
    });
    expect(params.find((p) => p.name === 'status')!.schema).toEqual({ $ref: '#/components/schemas/PetStatus' });
    expect(loadSpec().components.schemas.PetStatus.enum).toEqual(['available', 'pending', 'sold']);
    expect(petStatuses()).toEqual(['available', 'pending', 'sold']);
    expect(listPetsLimit()).toEqual({ minimum: 1, maximum: 100, default: 20 });
  });
});

describe('validators compiled from the spec', () => {
  it('compiles from component schemas that are valid JSON Schema 2020-12 (the runtime skips this check)', () => {
    const metaChecker = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(loadSpec().components.schemas)) {
      expect(metaChecker.validateSchema(schema), `${name}: ${metaChecker.errorsText()}`).toBe(true);
    }
    expect(metaChecker.validateSchema({ type: 'strng' })).toBe(false);
  });

  it.each([
    ['NewPet', { name: 'Rex', categoryId: 1 }, true],
    ['NewPet', { name: 'Rex', categoryId: 1, status: 'sold' }, true],
    ['NewPet', { name: 'Rex' }, false],
    ['NewPet', { categoryId: 1 }, false],
    ['NewPet', { name: 'Rex', categoryId: 1.5 }, false],
    ['NewPet', { name: 'Rex', categoryId: '1' }, false],
    ['NewPet', { name: 'Rex', categoryId: 1, status: 'lost' }, false],
    ['NewPet', { name: null, categoryId: 1 }, false],
    ['Pet', { id: 7, name: 'Rex', categoryId: 1 }, true],
    ['Pet', { name: 'Rex', categoryId: 1 }, false],
    ['Pet', { id: 7, name: 'Rex', categoryId: 1, colour: 'brown' }, true],
    ['Pets', [], true],
    ['Pets', {}, false],
    ['Error', { code: 'x', message: 'y', status: 400 }, true],
    ['Error', { code: 'x', message: 'y' }, false],
    ['Error', { code: 'x', message: 'y', status: '400' }, false],
  ] as const)('%s %j -> %s', (name, value, valid) => {
    expect(getValidator(name)(value)).toBe(valid);
  });

  it('closed validators reject fields the schema does not name', () => {
    expect(getValidator('Pet', { closed: true })({ id: 7, name: 'Rex', categoryId: 1 })).toBe(true);
    expect(getValidator('Pet', { closed: true })({ id: 7, name: 'Rex', categoryId: 1, colour: 'brown' })).toBe(false);
    expect(getValidator('Pets', { closed: true })([{ id: 7, name: 'Rex', categoryId: 1, colour: 'brown' }])).toBe(
      false,
    );
  });
});

describe("the mock's profile (spec/mock.overlay.yaml applied to the contract)", () => {
  const profile = loadProfile();
  const statuses = (doc: OpenApiDocument, path: string, method: string) =>
    Object.keys(doc.paths[path]![method].responses).map(Number);

  it('is valid OpenAPI 3.1, leaves the contract unchanged, and keeps every status the contract documents', async () => {
    const result = await new Validator().validate(structuredClone(profile) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(loadSpec()).toEqual(readSpecYaml());
    expect(profile.info.title).toBe('Petstore (reference mock profile)');
    for (const op of listOperations())
      expect(statuses(profile, op.path, op.method.toLowerCase())).toEqual(expect.arrayContaining(op.statuses));
  });

  it("writes the mock's headers and bounds: Location, deprecation headers, challenge, Retry-After, categoryId", () => {
    const headersOf = (path: string, status: string) =>
      Object.keys(profile.paths[path]!.get?.responses[status]?.headers ?? {});
    expect(Object.keys(profile.paths['/pets']!.post.responses['201'].headers)).toEqual(['Location']);
    expect(headersOf('/pets/{petId}', '200')).toEqual(['Deprecation', 'Sunset', 'Link']);
    expect(Object.keys(profile.components.responses.Unauthorized.headers)).toEqual(['WWW-Authenticate']);
    expect(Object.keys(profile.components.responses.TooManyRequests.headers)).toEqual([
      'Retry-After',
      'RateLimit-Policy',
      'RateLimit',
    ]);
    expect(profile.components.schemas.NewPet.properties.categoryId).toMatchObject({ maximum: Number.MAX_SAFE_INTEGER });
  });

  it('fails the build when an overlay action matches nothing', async () => {
    const contract = structuredClone(loadSpec());
    delete contract.paths['/pets/{petId}'];
    await expect(applyMockOverlay(contract)).rejects.toThrow(
      /actions matched nothing: \$\.paths\['\/pets\/\{petId\}'\]\.get/,
    );
  });
});
