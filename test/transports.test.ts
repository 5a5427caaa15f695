/**
 * One mock, three ways to reach it, one suite: the whole conformance suite,
 * strict, against the node:http server (a port), through the undici
 * Dispatcher (no socket), and through MSW's `setupServer` in Node (the
 * suite's requests go out with the global fetch, which MSW intercepts). Each
 * must pass, answer every case with the same statuses, and refuse a wrong key.
 */
import { setupServer } from 'msw/node';
import mswPackage from 'msw/package.json' with { type: 'json' };
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceError, type Report, runConformance } from '../conformance/index.ts';
import { createMswHandlers } from '../mock/msw/index.ts';
import { startMockServer } from '../mock/node/index.ts';
import { createMockDispatcher } from '../mock/undici/index.ts';
import { createFetchDispatcher } from './support/fetch-dispatcher.ts';

const KEY = 'transport-key';
const MOCK = { seed: 7, count: 20, apiKeys: [KEY] };

/** How the suite reaches one mock: its base URL, the dispatcher to inject (if any), and how to stop it. */
interface Reach {
  baseUrl: string;
  dispatcher?: Parameters<typeof runConformance>[0]['dispatcher'];
  stop(): Promise<void>;
}

const TRANSPORTS: [string, () => Promise<Reach>][] = [
  [
    'the node server (a port)',
    async () => {
      const server = await startMockServer({ ...MOCK, port: 0 });
      return { baseUrl: server.url, stop: server.close };
    },
  ],
  [
    'the undici dispatcher (no socket)',
    async () => {
      const dispatcher = createMockDispatcher({ ...MOCK, baseUrl: 'http://petstore.test/v1' });
      return { baseUrl: dispatcher.url, dispatcher, stop: () => dispatcher.close() };
    },
  ],
  [
    `MSW ${mswPackage.version} setupServer in Node (no socket)`,
    async () => {
      const petstore = createMswHandlers({ ...MOCK, baseUrl: 'https://api.example.test/v1' });
      const server = setupServer(...petstore.handlers);
      // The default for a request no handler takes: a warning, then the real network, where api.example.test fails.
      server.listen();
      return { baseUrl: petstore.url, dispatcher: createFetchDispatcher(), stop: async () => server.close() };
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
