/**
 * A runtime whose `undici` cannot send (Bun's stand-in, faked here; the real
 * one is test/package/ under bun): the mock dispatcher and an injected
 * dispatcher without request() are refused at once, and when a run fails to
 * start the user sees why, never an error from closing afterwards.
 */
import { Dispatcher } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { createMockDispatcher } from '../mock/undici/index.ts';

const closeFailure = new Error('dispatcher.close is not a function');
const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

vi.mock('../conformance/client/undici.ts', async (original) => {
  const real = await original<typeof import('../conformance/client/undici.ts')>();
  // An Agent that speaks undici's protocol (request() is what the settings look for) and cannot connect.
  class Agent {
    async request(): Promise<never> {
      throw refused();
    }
    dispatch(_options: unknown, handler: { onError(error: Error): void }): boolean {
      handler.onError(refused());
      return false;
    }
    async close(): Promise<never> {
      throw closeFailure;
    }
  }
  return { ...real, undici: { ...real.undici, Agent } };
});

const { runConformance } = await import('../conformance/index.ts');

describe('runConformance on any runtime', () => {
  it('shows why the run could not start, not the error its cleanup then hit', async () => {
    const run = runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' });
    await expect(run).rejects.toMatchObject({ code: 'PETSTORE_CONFORMANCE_UNREACHABLE' });
    await expect(run).rejects.not.toBe(closeFailure);
  });

  it("refuses at once a dispatcher that cannot send (Bun's stand-in for undici), naming what to use", async () => {
    const standIn = { dispatch: () => false, close: async () => {} };
    await expect(
      runConformance({ baseUrl: 'http://petstore.test/v1', apiKey: 'k', dispatcher: standIn as never }),
    ).rejects.toMatchObject({
      code: 'PETSTORE_CONFORMANCE_BAD_OPTIONS',
      message: expect.stringMatching(/no request\(\) method.*base URL.*startMockServer/),
    });
  });
});

describe('createMockDispatcher where undici has no request()', () => {
  it('is refused at once with a PETSTORE_MOCK_UNSUPPORTED_RUNTIME error naming the port and MSW', () => {
    const request = Object.getOwnPropertyDescriptor(Dispatcher.prototype, 'request')!;
    Reflect.deleteProperty(Dispatcher.prototype, 'request');
    try {
      expect(() => createMockDispatcher()).toThrow(
        expect.objectContaining({
          code: 'PETSTORE_MOCK_UNSUPPORTED_RUNTIME',
          message: expect.stringMatching(/startMockServer.*setupServer with createMswHandlers/),
        }),
      );
    } finally {
      Object.defineProperty(Dispatcher.prototype, 'request', request);
    }
    expect(createMockDispatcher().url).toBe('http://petstore.test/v1');
  });
});
