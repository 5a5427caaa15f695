import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetstoreMockError } from './errors.ts';
import { AUTH, CONTROL_JSON, expectError, JSON_HEADERS, json, setupMock } from './test-support.ts';

afterEach(() => void vi.useRealTimers());

describe('Prefer: code=NNN (RFC 7240)', () => {
  it('answers getPet with its documented 404 even for an existing pet', async () => {
    const { call } = setupMock();
    const response = await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'code=404' });
    expect(expectError(response, 404, 'not_found')).toContain('forced by Prefer: code=404');
    expect(response.headers['preference-applied']).toBe('code=404');
  });

  it('answers createPet with its documented 400 and stores nothing; 401 carries the challenge', async () => {
    const { call, mock } = setupMock();
    const body = '{"name":"Rex","categoryId":1}';
    expectError(await call('POST', '/v1/pets', { ...JSON_HEADERS, prefer: 'code=400' }, body), 400, 'invalid_body');
    expect(mock.pets.size).toBe(3);
    const refused = await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=401' });
    expectError(refused, 401, 'unauthorized');
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it.each([
    [429, 'rate_limited', '1'],
    [500, 'internal_error', undefined],
    [502, 'bad_gateway', undefined],
    [503, 'service_unavailable', '1'],
    [504, 'gateway_timeout', undefined],
  ])('forces the service failure %i on every operation, Retry-After: %s', async (status, code, retryAfter) => {
    const { call } = setupMock();
    for (const [method, url] of [
      ['GET', '/v1/pets'],
      ['POST', '/v1/pets'],
      ['GET', '/v1/pets/2'],
    ] as const) {
      const response = await call(method, url, { ...JSON_HEADERS, prefer: `code=${status}` }, '{}');
      expectError(response, status, code);
      expect(response.headers['retry-after']).toBe(retryAfter);
    }
  });

  it('refuses a code the operation does not document with a 400 listing the supported codes', async () => {
    const { call } = setupMock();
    const message = expectError(
      await call('GET', '/v1/pets', { ...AUTH, prefer: 'code=404' }),
      400,
      'invalid_preference',
    );
    expect(message).toBe('Prefer: code=404 is not supported here; supported codes: 401, 429, 500, 502, 503, 504');
    expectError(await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'code=abc' }), 400, 'invalid_preference');
    expectError(await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'code=200' }), 400, 'invalid_preference');
  });

  it('ignores unknown preferences, counts a repeated one once (the first), and reads several Prefer headers', async () => {
    const { call } = setupMock();
    const plain = await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'return=minimal, respond-async' });
    expect(plain.status).toBe(200);
    expect(plain.headers['preference-applied']).toBeUndefined();
    const twice = await call('GET', '/v1/pets/1', { ...AUTH, prefer: ['code=404; x=1', 'code=503', 'wait=5'] });
    expectError(twice, 404, 'not_found');
    expect(twice.headers['preference-applied']).toBe('code=404');
  });

  it('leaves the control endpoints alone', async () => {
    const { call } = setupMock();
    expect((await call('GET', '/__control/health', { prefer: 'code=503' })).status).toBe(200);
  });
});

describe('Prefer: delay=MS and combinations', () => {
  it('answers only after the delay, and combines with code (Preference-Applied lists both)', async () => {
    vi.useFakeTimers();
    const { call } = setupMock();
    let answered: Awaited<ReturnType<typeof call>> | undefined;
    void call('GET', '/v1/pets', { ...AUTH, prefer: 'code=503, delay="2000", x=y' }).then((r) => (answered = r));
    await vi.advanceTimersByTimeAsync(1999);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expectError(answered!, 503, 'service_unavailable');
    expect(answered!.headers['preference-applied']).toBe('code=503, delay=2000');
  });

  it.each(['60001', '-1', '1.5', 'soon'])('refuses delay=%s with a 400 naming the bound', async (value) => {
    const { call } = setupMock();
    const message = expectError(
      await call('GET', '/v1/pets', { ...AUTH, prefer: `delay=${value}` }),
      400,
      'invalid_preference',
    );
    expect(message).toContain('from 0 to 60000');
  });
});

describe('Prefer: fault=...', () => {
  it('malformed: a 200 that says JSON and is not', async () => {
    const { call } = setupMock();
    const response = await call('GET', '/v1/pets', { ...AUTH, prefer: 'fault=malformed' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(() => JSON.parse(response.body)).toThrow(SyntaxError);
  });

  it.each(['reset', 'close', 'hang'])('%s: the response carries the fault for the adapter', async (fault) => {
    const { call } = setupMock();
    const response = await call('GET', '/v1/pets/1', { ...AUTH, prefer: `fault=${fault}` });
    expect(response.fault).toBe(fault);
    expect(response.headers['preference-applied']).toBe(`fault=${fault}`);
  });

  it('truncated: the real answer, marked for the adapter to cut', async () => {
    const { call } = setupMock();
    const response = await call('GET', '/v1/pets/1', { ...AUTH, prefer: 'fault=truncated' });
    expect([response.fault, response.status, json(response).id]).toEqual(['truncated', 200, 1]);
  });

  it('refuses an unknown fault and a fault combined with a code', async () => {
    const { call } = setupMock();
    const unknown = await call('GET', '/v1/pets', { ...AUTH, prefer: 'fault=explode' });
    expect(expectError(unknown, 400, 'invalid_preference')).toContain('reset, close, truncated, malformed, hang');
    expectError(await call('GET', '/v1/pets', { ...AUTH, prefer: 'fault=reset, code=503' }), 400, 'invalid_preference');
  });
});

describe('scenarios', () => {
  it('answers the next `times` matching requests (path template, method), then goes away', async () => {
    const { call, mock } = setupMock();
    const added = json(
      await call(
        'POST',
        '/__control/scenarios',
        CONTROL_JSON,
        '{"method":"get","path":"/v1/pets/{petId}","times":2,"status":503}',
      ),
    );
    expect(added).toMatchObject({ id: '1', method: 'GET', times: 2, remaining: 2, matched: 0 });
    expect((await call('GET', '/v1/pets')).status).toBe(200);
    expect((await call('POST', '/v1/pets', JSON_HEADERS, '{"name":"A","categoryId":1}')).status).toBe(201);
    const first = await call('GET', '/v1/pets/1');
    expect(expectError(first, 503, 'service_unavailable')).toContain('forced by scenario 1');
    expect(mock.scenarios.list()).toMatchObject([{ id: '1', remaining: 1, matched: 1 }]);
    expect((await call('HEAD', '/v1/pets/2')).status).toBe(503);
    expect((await call('GET', '/v1/pets/1')).status).toBe(200);
    expect(json(await call('GET', '/__control/scenarios', {}))).toEqual([]);
  });

  it('without times, lasts until removed; removes one by id, or all', async () => {
    const { call } = setupMock();
    await call('POST', '/__control/scenarios', CONTROL_JSON, '{"path":"/v1/pets","fault":"malformed"}');
    await call('POST', '/__control/scenarios', CONTROL_JSON, '{"status":500}');
    for (let i = 0; i < 3; i++) expect((await call('GET', '/v1/pets')).body).not.toMatch(/^\[/);
    expect((await call('DELETE', '/__control/scenarios/1', {})).status).toBe(204);
    expectError(await call('DELETE', '/__control/scenarios/1', {}), 404, 'not_found');
    expectError(await call('GET', '/v1/pets'), 500, 'internal_error');
    expect((await call('DELETE', '/__control/scenarios', {})).status).toBe(204);
    expect((await call('GET', '/v1/pets')).status).toBe(200);
  });

  it('wins over a Prefer header, and delays with delayMs before the real answer', async () => {
    vi.useFakeTimers();
    const { call, mock } = setupMock();
    mock.scenarios.add({ path: '/v1/pets/{petId}', delayMs: 500, times: 1 });
    let answered: Awaited<ReturnType<typeof call>> | undefined;
    void call('GET', '/v1/pets/1', { ...AUTH, prefer: 'code=404' }).then((r) => (answered = r));
    await vi.advanceTimersByTimeAsync(499);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect([answered!.status, answered!.headers['preference-applied']]).toEqual([200, undefined]);
  });

  it.each([
    ['[]', 'the body must be an object'],
    ['{"status":503,"colour":"red"}', 'colour is not a scenario field'],
    ['{"method":"FETCH","status":503}', 'method must be one of'],
    ['{"path":"v1/pets","status":503}', 'path must start with /'],
    ['{"times":0,"status":503}', 'times must be an integer'],
    ['{"status":418}', 'status must be one of 400, 401, 404, 429, 500, 502, 503, 504'],
    ['{"delayMs":60001}', 'delayMs must be an integer from 0 to 60000'],
    ['{"fault":"explode"}', 'fault must be one of'],
    ['{"path":"/v1/pets"}', 'status, delayMs or fault is required'],
    ['{"status":503,"fault":"reset"}', 'status and fault cannot be combined'],
  ])('refuses %s with a 400 naming the field', async (body, message) => {
    const { call, mock } = setupMock();
    expect(
      expectError(await call('POST', '/__control/scenarios', CONTROL_JSON, body), 400, 'invalid_scenario'),
    ).toContain(message);
    expect(mock.scenarios.list()).toEqual([]);
  });

  it('in process: add throws a PetstoreMockError with a stable code', () => {
    const { mock } = setupMock();
    expect(() => mock.scenarios.add({ status: 999 })).toThrow(PetstoreMockError);
    try {
      mock.scenarios.add({ status: 999 });
    } catch (error) {
      expect((error as PetstoreMockError).code).toBe('PETSTORE_MOCK_INVALID_SCENARIO');
    }
    expect(mock.scenarios.add({ status: 503 }).id).toBe('1');
    expect(mock.scenarios.remove('1')).toBe(true);
  });
});
