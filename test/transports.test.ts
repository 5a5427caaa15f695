/**
 * One mock, three ways to reach it, one suite: the whole conformance suite,
 * strict, against the node:http server (a port), through the undici
 * Dispatcher (no socket), and through MSW's `setupServer` in Node (the
 * suite's requests go out with the global fetch, which MSW intercepts). Each
 * must pass, answer every case with the same statuses, and refuse a wrong key.
 */
import { setupServer } from 'msw/node';
import mswPackage from 'msw/package.json' with { type: 'json' };
import { fetch as undiciFetch } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceError, type Report, runConformance } from '../conformance/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { type JournalEntry, startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';
import { createFetchDispatcher } from './support/fetch-dispatcher.ts';

const KEY = 'transport-key';
const MOCK = { seed: 7, count: 20, apiKeys: [KEY] };

/** How the suite reaches one mock: its base URL, the dispatcher to inject (if any), and how to stop it. */
interface Reach {
  baseUrl: string;
  dispatcher?: Parameters<typeof runConformance>[0]['dispatcher'];
  /** How an application's own code reaches it: global fetch, or undici's fetch with the dispatcher. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The mock's request journal. */
  requests(): JournalEntry[];
  stop(): Promise<void>;
}

const TRANSPORTS: [string, () => Promise<Reach>][] = [
  [
    'the node server (a port)',
    async () => {
      const server = await startMockServer({ ...MOCK, port: 0 });
      return { baseUrl: server.url, fetch, requests: () => server.requests(), stop: server.close };
    },
  ],
  [
    'the undici dispatcher (no socket)',
    async () => {
      const dispatcher = createMockDispatcher({ ...MOCK, baseUrl: 'http://petstore.test/v1' });
      return {
        baseUrl: dispatcher.url,
        dispatcher,
        fetch: (url, init) =>
          undiciFetch(url, {
            ...(init as Parameters<typeof undiciFetch>[1]),
            dispatcher,
          }) as unknown as Promise<Response>,
        requests: () => dispatcher.mock.requests(),
        stop: () => dispatcher.close(),
      };
    },
  ],
  [
    `MSW ${mswPackage.version} setupServer in Node (no socket)`,
    async () => {
      const petstore = createMswHandlers({ ...MOCK, baseUrl: 'https://api.example.test/v1' });
      const server = setupServer(...petstore.handlers);
      // The default for a request no handler takes: a warning, then the real network, where api.example.test fails.
      server.listen();
      return {
        baseUrl: petstore.url,
        dispatcher: createFetchDispatcher(),
        fetch,
        requests: () => petstore.requests(),
        stop: async () => server.close(),
      };
    },
  ],
];

/** What a run answered, case by case: outcome and the status of each exchange (ids of created pets left out). */
function answers(report: Report): string[] {
  return report.cases.map((c) => `${c.id} ${c.outcome} ${c.exchanges.map((e) => e.response?.status ?? e.error?.code)}`);
}

let reach: Reach | undefined;
afterEach(async () => {
  await reach?.stop();
  reach = undefined;
});

let reference: Report;
beforeAll(async () => {
  const server = await startMockServer({ ...MOCK, port: 0 });
  try {
    reference = await runConformance({ baseUrl: server.url, apiKey: KEY, strict: true, concurrency: 1 });
  } finally {
    await server.close();
  }
});

describe.each(TRANSPORTS)('the conformance suite through %s', (_name, open) => {
  it('passes every case, strict, with the same answers as the node server', async () => {
    reach = await open();
    const report = await runConformance({
      baseUrl: reach.baseUrl,
      apiKey: KEY,
      strict: true,
      concurrency: 1,
      ...(reach.dispatcher ? { dispatcher: reach.dispatcher } : {}),
    });
    expect(report.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary.total).toBeGreaterThan(50);
    expect(answers(report)).toEqual(answers(reference));
  });

  it('reaches the mock itself: a key it does not accept is refused on every request', async () => {
    reach = await open();
    const run = runConformance({
      baseUrl: reach.baseUrl,
      apiKey: 'not-the-key',
      ...(reach.dispatcher ? { dispatcher: reach.dispatcher } : {}),
    });
    await expect(run).rejects.toBeInstanceOf(ConformanceError);
    await expect(run).rejects.toMatchObject({ code: 'PETSTORE_CONFORMANCE_KEY_REJECTED' });
  });
});

/** A GET of pet 1 with `Prefer: prefer`, through the transport's own client path. */
function getWithPrefer(reach: Reach, prefer: string, signal?: AbortSignal): Promise<Response> {
  const init = { headers: { authorization: `Bearer ${KEY}`, prefer }, ...(signal ? { signal } : {}) };
  return reach.fetch(`${reach.baseUrl}/pets/1`, init);
}

describe.each(TRANSPORTS)('forced answers and transport faults through %s', (_name, open) => {
  it('code=503 is a 503 Error with Retry-After; malformed is a 200 whose body is not JSON', async () => {
    reach = await open();
    const forced = await getWithPrefer(reach, 'code=503');
    expect(forced.status).toBe(503);
    expect(forced.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await forced.json()).toMatchObject({ status: 503 });
    const malformed = await getWithPrefer(reach, 'fault=malformed');
    expect(malformed.status).toBe(200);
    const text = await malformed.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it.each(['reset', 'close'])('fault=%s fails the request as a network error, with no response', async (fault) => {
    reach = await open();
    await expect(getWithPrefer(reach, `fault=${fault}`)).rejects.toThrow();
  });

  it('fault=truncated gives the status and headers, then the body fails part way', async () => {
    reach = await open();
    const response = await getWithPrefer(reach, 'fault=truncated');
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10);
    await expect(response.text()).rejects.toThrow();
  });

  it('the journal keeps the request as sent: its headers, the key redacted, the query decoded', async () => {
    reach = await open();
    const response = await reach.fetch(`${reach.baseUrl}/pets?limit=2`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-trace': 'trace-1' },
    });
    expect(response.status).toBe(200);
    const [entry] = reach.requests().filter((e) => e.headers['x-trace'] !== undefined);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '2' },
      status: 200,
      headers: { authorization: '[REDACTED]', 'x-trace': 'trace-1' },
    });
  });

  it('fault=hang answers nothing until the client gives up', async () => {
    reach = await open();
    const started = performance.now();
    await expect(getWithPrefer(reach, 'fault=hang', AbortSignal.timeout(300))).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });
});
