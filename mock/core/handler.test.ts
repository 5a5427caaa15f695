import { describe, expect, it } from 'vitest';
import { getValidator, type Pet } from '../../spec/index.ts';
import { createHandler } from './handler.ts';
import { compose } from './layers.ts';
import { type ApiRequest, type ApiResponse, ErrorCode } from './responses.ts';
import { seedPets } from './seed.ts';
import { createPetStore } from './store.ts';

const KEY = 'test-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

function setup(count = 50) {
  const store = createPetStore(seedPets({ seed: 1, count }));
  // The one pipeline with no layer: routing in compose, then the operations; a store in memory answers at once.
  const handler = compose([], createHandler({ store, apiKeys: [KEY, 'second-key'] }));
  const call = (
    method: string,
    url: string,
    headers: ApiRequest['headers'] = AUTH,
    body?: string,
    extra: Partial<ApiRequest> = {},
  ) => handler({ method, url, headers, body, ...extra }) as ApiResponse;
  return { store, call };
}

function json(response: ApiResponse): any {
  return JSON.parse(response.body);
}

/** Asserts the response is the documented Error shape with the given status and code. */
function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  const body = json(response);
  expect(getValidator('Error')(body)).toBe(true);
  expect(body).toMatchObject({ status, code });
}

describe('listPets (interface: Endpoints 1)', () => {
  it('200 with a Pets array of the default 20, ascending id', () => {
    const { call } = setup();
    const response = call('GET', '/v1/pets');
    expect(response.status).toBe(200);
    const pets: Pet[] = json(response);
    expect(getValidator('Pets')(pets)).toBe(true);
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.each([
    [1, 1],
    [7, 7],
    [100, 50],
  ])('limit=%i returns %i pets', (limit, expected) => {
    expect(json(setup().call('GET', `/v1/pets?limit=${limit}`))).toHaveLength(expected);
  });

  it.each(['available', 'pending', 'sold'] as const)('status=%s returns only and all such pets', (status) => {
    const { call, store } = setup();
    const pets: Pet[] = json(call('GET', `/v1/pets?status=${status}&limit=100`));
    expect(pets.length).toBeGreaterThan(0);
    expect(pets).toEqual(store.all().filter((p) => p.status === status));
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e2', ' 5', '0x10'])('limit=%j is a 400 Error', (limit) => {
    expectError(setup().call('GET', `/v1/pets?limit=${encodeURIComponent(limit)}`), 400, ErrorCode.invalidParameter);
  });

  it.each(['lost', '', 'SOLD', 'available,sold'])('status=%j is a 400 Error', (status) => {
    expectError(setup().call('GET', `/v1/pets?status=${encodeURIComponent(status)}`), 400, ErrorCode.invalidParameter);
  });

  it('a repeated parameter is a 400 Error rather than a guess', () => {
    expectError(setup().call('GET', '/v1/pets?limit=1&limit=2'), 400, ErrorCode.invalidParameter);
  });

  it('ignores query parameters it does not know', () => {
    expect(setup().call('GET', '/v1/pets?page=2&limit=3').status).toBe(200);
  });
});

describe('createPet (interface: Endpoints 2)', () => {
  it('201 with the Pet, its new id, and a Location; the pet then comes back from getPet and listPets', () => {
    const { call } = setup(3);
    const response = call(
      'POST',
      '/v1/pets',
      JSON_HEADERS,
      JSON.stringify({ name: 'Rex', categoryId: 4, status: 'pending' }),
    );
    expect(response.status).toBe(201);
    const pet = json(response);
    expect(pet).toEqual({ id: 4, name: 'Rex', categoryId: 4, status: 'pending' });
    expect(response.headers.location).toBe('/v1/pets/4');
    expect(json(call('GET', '/v1/pets/4'))).toEqual(pet);
    expect(json(call('GET', '/v1/pets?status=pending&limit=100'))).toContainEqual(pet);
  });

  it('201 without a status, and the pet has none', () => {
    const pet = json(setup().call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":4}'));
    expect(pet).toEqual({ id: 51, name: 'Rex', categoryId: 4 });
  });

  it('gives two creates different ids', () => {
    const { call } = setup();
    const a = json(call('POST', '/v1/pets', JSON_HEADERS, '{"name":"A","categoryId":1}'));
    const b = json(call('POST', '/v1/pets', JSON_HEADERS, '{"name":"A","categoryId":1}'));
    expect(a.id).not.toBe(b.id);
  });

  it.each([
    ['missing name', '{"categoryId":1}', ErrorCode.invalidBody, 'name'],
    ['missing categoryId', '{"name":"Rex"}', ErrorCode.invalidBody, 'categoryId'],
    ['name not a string', '{"name":5,"categoryId":1}', ErrorCode.invalidBody, 'name'],
    ['categoryId a string', '{"name":"Rex","categoryId":"1"}', ErrorCode.invalidBody, 'categoryId'],
    ['categoryId a fraction', '{"name":"Rex","categoryId":1.5}', ErrorCode.invalidBody, 'categoryId'],
    ['categoryId beyond 2^53', '{"name":"Rex","categoryId":9007199254740993}', ErrorCode.invalidBody, 'categoryId'],
    ['categoryId 1e300', '{"name":"Rex","categoryId":1e300}', ErrorCode.invalidBody, 'categoryId'],
    ['null name', '{"name":null,"categoryId":1}', ErrorCode.invalidBody, 'name'],
    ['status not in the enumeration', '{"name":"Rex","categoryId":1,"status":"lost"}', ErrorCode.invalidBody, 'status'],
    ['status null', '{"name":"Rex","categoryId":1,"status":null}', ErrorCode.invalidBody, 'status'],
    ['an array', '[]', ErrorCode.invalidBody, 'object'],
    ['a string', '"Rex"', ErrorCode.invalidBody, 'object'],
    ['null', 'null', ErrorCode.invalidBody, 'object'],
    ['malformed JSON', '{"name":', ErrorCode.malformedJson, 'JSON'],
    ['an empty body', '', ErrorCode.invalidBody, 'required'],
  ])('%s is a 400 Error naming the problem, and nothing is stored', (_title, body, code, named) => {
    const { call, store } = setup();
    const response = call('POST', '/v1/pets', JSON_HEADERS, body);
    expectError(response, 400, code);
    expect(json(response).message).toContain(named);
    expect(store.size).toBe(50);
  });

  it('rejects bytes that are not UTF-8 as malformed JSON', () => {
    const { call } = setup();
    expectError(
      call('POST', '/v1/pets', JSON_HEADERS, undefined, { body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
      400,
      ErrorCode.malformedJson,
    );
  });

  it('keeps a categoryId of 2^53-1 exactly', () => {
    const pet = json(setup().call('POST', '/v1/pets', JSON_HEADERS, '{"name":"Rex","categoryId":9007199254740991}'));
    expect(pet.categoryId).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('ignores a client-sent id and unknown fields, and never stores them', () => {
    const { call, store } = setup();
    const before = json(call('GET', '/v1/pets/3'));
    const body =
      '{"id":3,"name":"Intruder","categoryId":1,"owner":"x","constructor":{"prototype":{"bad":1}},"__proto__":{"polluted":true}}';
    const created = json(call('POST', '/v1/pets', JSON_HEADERS, body));
    expect(created).toEqual({ id: 51, name: 'Intruder', categoryId: 1 });
    expect(json(call('GET', '/v1/pets/3'))).toEqual(before);
    expect(Object.keys(store.get(51)!.pet)).toEqual(['id', 'name', 'categoryId']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).bad).toBeUndefined();
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx'])(
    'Content-Type %s is a 415 Error',
    (type) => {
      expectError(
        setup().call('POST', '/v1/pets', { ...AUTH, 'content-type': type }, '{"name":"Rex","categoryId":1}'),
        415,
        ErrorCode.unsupportedMediaType,
      );
    },
  );

  it('accepts application/json with parameters and application/*+json', () => {
    const { call } = setup();
    expect(
      call(
        'POST',
        '/v1/pets',
        { ...AUTH, 'content-type': 'application/json; charset=utf-8' },
        '{"name":"A","categoryId":1}',
      ).status,
    ).toBe(201);
    expect(
      call(
        'POST',
        '/v1/pets',
        { ...AUTH, 'content-type': 'application/merge-patch+json' },
        '{"name":"A","categoryId":1}',
      ).status,
    ).toBe(201);
  });

  it('a body over the limit is a 413 Error', () => {
    expectError(
      setup().call('POST', '/v1/pets', JSON_HEADERS, undefined, { bodyTooLarge: true }),
      413,
      ErrorCode.payloadTooLarge,
    );
  });
});

describe('getPet (interface: Endpoints 3, deprecated)', () => {
  it('200 with the Pet and the Deprecation, Sunset and Link headers', () => {
    const { call, store } = setup();
    const response = call('GET', '/v1/pets/7');
    expect(response.status).toBe(200);
    expect(json(response)).toEqual(store.get(7)!.pet);
    expect(getValidator('Pet')(json(response))).toBe(true);
    expect(response.headers).toMatchObject({
      deprecation: '@0',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: '</v1/pets>; rel="successor-version"',
    });
  });

  it.each(['51', '0', '-1', '9007199254740993', '9223372036854775807'])(
    'petId %s that no pet has is a 404 Error',
    (id) => {
      expectError(setup().call('GET', `/v1/pets/${id}`), 404, ErrorCode.notFound);
    },
  );

  it.each(['007', '0000000000000007', '00000000000000000007'])('petId %s, with leading zeros, is pet 7', (id) => {
    expect(json(setup().call('GET', `/v1/pets/${id}`)).id).toBe(7);
  });

  it('decodes each path segment on its own: /v1/%70ets/%37 is pet 7', () => {
    expect(json(setup().call('GET', '/v1/%70ets/%37')).id).toBe(7);
  });

  it.each(['abc', '1.5', '9223372036854775808', '1e3', '%20', '1%2F2'])('malformed petId %j is a 400 Error', (id) => {
    expectError(setup().call('GET', `/v1/pets/${id}`), 400, ErrorCode.invalidParameter);
  });
});

describe('authentication (interface: Authentication; RFC 6750)', () => {
  const requests: [string, string, string?][] = [
    ['GET', '/v1/pets'],
    ['GET', '/v1/pets?limit=0&status=lost'],
    ['POST', '/v1/pets', '{"name":1}'],
    ['GET', '/v1/pets/1'],
    ['GET', '/v1/pets/999999'],
    ['GET', '/v1/pets/abc'],
  ];
  const variants: [string, Record<string, string>, string][] = [
    ['no header', {}, 'Bearer realm="petstore"'],
    ['a wrong key', { authorization: 'Bearer nope' }, 'Bearer realm="petstore", error="invalid_token"'],
    ['Basic', { authorization: `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}` }, 'Bearer realm="petstore"'],
    ['an empty token', { authorization: 'Bearer ' }, 'Bearer realm="petstore"'],
    ['the key without a scheme', { authorization: KEY }, 'Bearer realm="petstore"'],
  ];
  for (const [method, url, body] of requests) {
    it.each(variants)(`${method} ${url} with %s is a 401 Error before anything else`, (_title, headers, challenge) => {
      const { call, store } = setup();
      const response = call(method, url, { ...headers, 'content-type': 'application/json' }, body);
      expectError(response, 401, ErrorCode.unauthorized);
      expect(response.headers['www-authenticate']).toBe(challenge);
      expect(store.size).toBe(50);
    });
  }

  it.each(['bearer', 'BEARER', 'Bearer'])('accepts the scheme written %s, and any configured key', (scheme) => {
    const { call } = setup();
    expect(call('GET', '/v1/pets', { authorization: `${scheme} ${KEY}` }).status).toBe(200);
    expect(call('GET', '/v1/pets', { authorization: `${scheme} second-key` }).status).toBe(200);
  });

  it('never puts the key in a response', () => {
    const { call } = setup();
    for (const response of [
      call('GET', '/v1/pets', { authorization: 'Bearer wrong-key-123' }),
      call('GET', '/v1/nope'),
    ]) {
      expect(JSON.stringify(response)).not.toContain('wrong-key-123');
    }
  });
});

describe('routes, methods and CORS', () => {
  it.each([
    '/',
    '/v1',
    '/v1/pets/',
    '/v1/pets/1/2',
    '/v2/pets',
    '/v1/store/orders',
    '/v1/pets%2F5',
    '/v1%2Fpets',
    '/v1/pets/%E0%A4%A',
  ])('unknown route %s is a 404 Error', (url) => {
    expectError(setup().call('GET', url), 404, ErrorCode.routeNotFound);
  });

  it.each([
    ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
    ['PUT', '/v1/pets/1', 'GET, HEAD'],
    ['PATCH', '/v1/pets/1', 'GET, HEAD'],
  ])('%s %s is a 405 Error with Allow', (method, url, allow) => {
    const response = setup().call(method, url);
    expectError(response, 405, ErrorCode.methodNotAllowed);
    expect(response.headers.allow).toBe(allow);
  });

  it('answers OPTIONS with 204 and Allow, with no CORS header of its own (CORS is a layer: mock.test.ts)', () => {
    const response = setup().call('OPTIONS', '/v1/pets', { 'access-control-request-method': 'POST' });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('leaves the control endpoints to their layer: the bare handler routes only the API', () => {
    expectError(setup().call('GET', '/__control/pets', {}), 404, ErrorCode.routeNotFound);
  });
});

describe('every error the mock sends', () => {
  it('uses only the documented codes', () => {
    const { call } = setup();
    const responses = [
      call('GET', '/v1/pets', {}),
      call('GET', '/v1/pets?limit=0'),
      call('POST', '/v1/pets', JSON_HEADERS, '{}'),
      call('POST', '/v1/pets', JSON_HEADERS, '{'),
      call('POST', '/v1/pets', { ...AUTH, 'content-type': 'text/plain' }, 'x'),
      call('POST', '/v1/pets', JSON_HEADERS, undefined, { bodyTooLarge: true }),
      call('GET', '/v1/pets/999'),
      call('GET', '/nowhere'),
      call('DELETE', '/v1/pets'),
    ];
    const codes = responses.map((r) => json(r).code);
    expect(new Set(codes).size).toBe(responses.length);
    for (const code of codes) expect(Object.values(ErrorCode)).toContain(code);
  });
});
