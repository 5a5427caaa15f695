import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesTemplate } from '../../spec/match.ts';
import { createScenarioStore, MAX_SCENARIOS, type ScenarioInput } from './scenarios.ts';
import { CONTROL_JSON, expectError, setupMock } from './test-support.ts';

describe('the scenario index', () => {
  it('answers with the first added that matches, whichever bucket holds it', () => {
    const store = createScenarioStore();
    store.add({ path: '/v1/pets/{petId}', status: 500 }); // 1: any method, a template
    store.add({ method: 'GET', path: '/v1/pets/7', status: 502 }); // 2: exact
    store.add({ method: 'GET', status: 503 }); // 3: GET, any path
    store.add({ method: 'POST', path: '/v1/pets', status: 504, times: 1 }); // 4
    expect(store.take('GET', '/v1/pets/7')?.id).toBe('1');
    expect(store.take('GET', '/v1/pets')?.id).toBe('3');
    expect(store.take('HEAD', '/v1/pets')?.id).toBe('3');
    expect(store.take('POST', '/v1/pets')?.id).toBe('4');
    expect(store.take('POST', '/v1/pets')).toBeUndefined();
    expect(store.remove('1')).toBe(true);
    expect(store.take('GET', '/v1/pets/7')?.id).toBe('2');
    expect(store.take('DELETE', '/v1/pets/7')).toBeUndefined();
    expect(store.list().map((s) => [s.id, s.matched])).toEqual([
      ['2', 1],
      ['3', 2],
    ]);
    expect(store.list()[0]).not.toHaveProperty('order');
  });

  it('answers as a walk over every scenario in order would (a property test against that model)', () => {
    const paths = [
      '/v1/pets',
      '/v1/pets/7',
      '/v1/pets/{petId}',
      '/v1/{a}/7',
      '/{a}/pets/{b}',
      '/v1/pets/{id}/x',
      '/v1/pets/7/x',
    ];
    const scenario = fc.record(
      {
        method: fc.constantFrom('GET', 'HEAD', 'POST'),
        path: fc.constantFrom(...paths),
        times: fc.integer({ min: 1, max: 3 }),
      },
      { requiredKeys: [] },
    );
    const request = fc.tuple(
      fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE'),
      fc.constantFrom(...paths, '/v1', '/x/pets/9'),
    );
    fc.assert(
      fc.property(fc.array(scenario, { maxLength: 12 }), fc.array(request, { maxLength: 30 }), (inputs, requests) => {
        const store = createScenarioStore();
        const model = inputs.map((input, i) => ({ ...(input as ScenarioInput), id: String(i + 1), left: input.times }));
        for (const input of inputs) store.add({ ...input, status: 503 });
        for (const [method, path] of requests) {
          const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
          const hit = model.find(
            (s) =>
              (s.method === undefined || wanted.includes(s.method)) &&
              (s.path === undefined || matchesTemplate(s.path, path)),
          );
          if (hit?.left !== undefined && --hit.left === 0) model.splice(model.indexOf(hit), 1);
          expect(store.take(method, path)?.id).toBe(hit?.id);
        }
        expect(store.list().map((s) => s.id)).toEqual(model.map((s) => s.id));
      }),
      { numRuns: 300 },
    );
  });

  it(`holds at most ${MAX_SCENARIOS}: one more is a 400 naming the cap, and removing makes room`, async () => {
    const { call, mock } = setupMock();
    for (let i = 0; i < MAX_SCENARIOS; i++) mock.scenarios.add({ path: `/v1/pets/${i}`, status: 503 });
    const refused = await call('POST', '/__control/scenarios', CONTROL_JSON, '{"status":503}');
    expect(expectError(refused, 400, 'invalid_scenario')).toContain(`at most ${MAX_SCENARIOS} scenarios`);
    expect(() => mock.scenarios.add({ status: 503 })).toThrow(/at most 1000 scenarios/);
    expect(mock.scenarios.list()).toHaveLength(MAX_SCENARIOS);
    // A request looks up its own path, not the thousand others.
    expect((await call('GET', '/v1/pets/999')).status).toBe(503);
    expect(() => mock.scenarios.add({ path: `/${'a'.repeat(2_048)}`, status: 503 })).toThrow(/at most 2048 characters/);
    mock.scenarios.remove('1');
    expect((await call('POST', '/__control/scenarios', CONTROL_JSON, '{"status":503}')).status).toBe(201);
  });
});
