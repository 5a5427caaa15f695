// Under `bun test`: the CommonJS entry through require(), and MSW's setupServer (msw 2: msw 3's
// interceptors do not take hold on Bun 1.4, and the request leaves for the network).
import { expect, test } from 'bun:test';
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { createMswHandlers } from 'petstore-toolkit/msw';

test('require() from CommonJS', () => {
  const require = createRequire(import.meta.url);
  const { startMockServer } = require('petstore-toolkit/mock');
  expect(typeof startMockServer).toBe('function');
});

test("MSW's setupServer answers fetch with the mock's handlers", async () => {
  const petstore = createMswHandlers({ count: 3 });
  const server = setupServer(...petstore.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const res = await fetch(`${petstore.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(3);
  } finally {
    server.close();
  }
});
