/**
 * One error family: every bad option and input to every adapter throws a
 * PetstoreMockError with the stable code of its kind, and nothing else
 * (no RangeError, TypeError or undici error from inside).
 */
import { describe, expect, it } from 'vitest';
import {
  createMock,
  PETSTORE_MOCK_ERROR_CODES,
  PetstoreMockError,
  type PetstoreMockErrorCode,
} from '../mock/core/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { loadPetsFile, startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';

/** Bad options every adapter shares (the mock's own). */
const BAD_MOCK_OPTIONS: [string, unknown][] = [
  ['options not an object', 'seed=1'],
  ['a count below 0', { count: -1 }],
  ['a count not an integer', { count: 1.5 }],
  ['a count too large', { count: 1_000_001 }],
  ['a seed that is not an integer', { seed: 'one' }],
  ['a negative latency', { latency: -1 }],
  ['a latency range upside down', { latency: { min: 5, max: 1 } }],
  ['a latency of the wrong type', { latency: '200' }],
  ['a rate limit of 0', { rateLimit: 0 }],
  ['chaos above 1', { chaos: 1.5 }],
  ['chaos as text', { chaos: '0.5' }],
  ['a negative journal size', { journalSize: -1 }],
  ['a journal byte budget not an integer', { journalBytes: 1.5 }],
  ['a CORS origin that is not an origin', { corsOrigins: ['app.test:5173'] }],
  ['corsOrigins not an array', { corsOrigins: 'http://app.test' }],
  ['apiKeys not an array', { apiKeys: 'k' }],
  ['an empty key', { apiKeys: [''] }],
  ['a key with a space', { apiKeys: ['a b'] }],
  ['cors not a boolean', { cors: 'no' }],
  ['now not a function', { now: 5 }],
  ['pets not an array', { pets: {} }],
];

const BAD_BASE_URLS: [string, unknown][] = [
  ['a baseUrl not ending in /v1', { baseUrl: 'http://petstore.test/v2' }],
  ['a baseUrl with a query', { baseUrl: 'http://petstore.test/v1?x=1' }],
  ['a baseUrl that is not a string', { baseUrl: 42 }],
];

const ADAPTERS: [string, (options: unknown) => Promise<{ close(): Promise<void> }>][] = [
  ['startMockServer', (options) => startMockServer(options as never)],
  ['createMswHandlers', async (options) => createMswHandlers(options as never)],
  ['createMockDispatcher', async (options) => createMockDispatcher(options as never)],
];

/** What `make(options)` threw, as its class and code (or 'no error'). */
async function thrown(make: () => Promise<{ close(): Promise<void> }>): Promise<string> {
  try {
    await (await make()).close();
    return 'no error';
  } catch (error) {
    return error instanceof PetstoreMockError ? error.code : `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe.each(ADAPTERS)('%s', (name, make) => {
  const cases: [string, unknown, PetstoreMockErrorCode][] = [
    ...BAD_MOCK_OPTIONS.map(
      ([what, options]) => [what, options, 'PETSTORE_MOCK_BAD_OPTION'] as [string, unknown, PetstoreMockErrorCode],
    ),
    ['a bad pet', { pets: [{ id: 1, name: 'A' }] }, 'PETSTORE_MOCK_INVALID_PETS'],
    ...(name === 'startMockServer'
      ? ([
          ['a port out of range', { port: 70000 }],
          ['an empty host', { host: '' }],
          ['an unknown timeout', { timeouts: { bodyMs: 5 } }],
          ['log not a function', { log: true }],
          ['an allowed host that is a URL', { allowedHosts: ['http://app.test/'] }],
          ['allowedHosts not an array', { allowedHosts: 'app.test' }],
        ] as [string, unknown][])
      : BAD_BASE_URLS
    ).map(([what, options]) => [what, options, 'PETSTORE_MOCK_BAD_OPTION'] as [string, unknown, PetstoreMockErrorCode]),
    ...(name === 'createMockDispatcher'
      ? ([
          ['a path-only baseUrl', { baseUrl: '/v1' }, 'PETSTORE_MOCK_BAD_OPTION'],
          ['a fallback that is not a dispatcher', { fallback: {} }, 'PETSTORE_MOCK_BAD_OPTION'],
        ] as [string, unknown, PetstoreMockErrorCode][])
      : []),
  ];
  it.each(cases)('refuses %s with a PetstoreMockError', async (_what, options, code) => {
    expect(await thrown(() => make(options))).toBe(code);
  });

  it('refuses a mistyped option, naming it and the closest known name, never starting with the defaults', async () => {
    const error = await make({ apikeys: ['x'], cout: 3 }).then(
      async (mock) => {
        await mock.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PetstoreMockError);
    expect(error).toMatchObject({ code: 'PETSTORE_MOCK_BAD_OPTION', option: 'apikeys' });
    expect((error as Error).message).toBe(
      'apikeys: not an option; did you mean apiKeys? (also cout: not an option; did you mean count?)',
    );
    // The adapter's own options are suggested too, and a name near nothing is still refused.
    const own = name === 'startMockServer' ? 'port' : 'baseUrl';
    await expect(make({ [own.toUpperCase()]: 1 })).rejects.toThrow(
      `${own.toUpperCase()}: not an option; did you mean ${own}?`,
    );
    await expect(make({ banana: 1 })).rejects.toThrow(/^banana: not an option$/);
  });

  it('refuses a bad scenario and bad pets in process with the input codes, changing nothing', async () => {
    const mock = (await make({ count: 3 })) as unknown as import('../mock/core/index.ts').PetstoreMock;
    try {
      expect(() => mock.scenarios.add({ status: 999 } as never)).toThrow(
        expect.objectContaining({ name: 'PetstoreMockError', code: 'PETSTORE_MOCK_INVALID_SCENARIO' }),
      );
      expect(() => mock.replacePets('nope' as never)).toThrow(
        expect.objectContaining({ code: 'PETSTORE_MOCK_INVALID_PETS' }),
      );
      for (const filter of [null, 'GET', { method: 5 }, { path: ['/v1/pets'] }])
        expect(() => mock.requests(filter as never)).toThrow(
          expect.objectContaining({ code: 'PETSTORE_MOCK_BAD_OPTION' }),
        );
      expect(mock.pets.size).toBe(3);
      expect(mock.scenarios.list()).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

it('createMock refuses a mistyped option as the adapters do', () => {
  expect(() => createMock({ seeed: 1 } as never)).toThrow(
    expect.objectContaining({
      code: 'PETSTORE_MOCK_BAD_OPTION',
      option: 'seeed',
      message: 'seeed: not an option; did you mean seed?',
    }),
  );
});

it('a pets file that is not pets is PETSTORE_MOCK_INVALID_PETS', () => {
  expect(() => loadPetsFile('/nonexistent/pets.json')).toThrow(PetstoreMockError);
});

it('the codes are the documented ones, each listed in docs/mock.md', async () => {
  const { readFileSync } = await import('node:fs');
  const docs = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');
  for (const code of PETSTORE_MOCK_ERROR_CODES) expect(docs, code).toContain(`\`${code}\``);
  expect(new PetstoreMockError('PETSTORE_MOCK_CLOSED', 'x')).toBeInstanceOf(Error);
});
