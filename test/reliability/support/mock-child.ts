/**
 * The mock in a child process, for tests that measure it from outside: it
 * prints its base URL as one JSON line on stdout, and answers IPC messages
 * `memory` (after two forced collections, when run with --expose-gc),
 * `reset` and `close`.
 */
import { startMockServer } from '../../../mock/node/index.ts';

/** A message the parent sends. */
export type ChildRequest = { type: 'memory' } | { type: 'reset' } | { type: 'close' };

const apiKeys = (process.env.RELIABILITY_KEYS ?? 'load-test-key').split(',');
// More options for one test (journalSize, journalBytes), as JSON.
const extra = JSON.parse(process.env.RELIABILITY_OPTIONS ?? '{}') as Record<string, unknown>;
const mock = await startMockServer({ port: 0, count: 50, apiKeys, ...extra });
process.stdout.write(`${JSON.stringify({ url: mock.url, origin: mock.origin })}\n`);

process.on('message', (message: ChildRequest) => {
  if (message.type === 'memory') {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    process.send!({ type: 'memory', usage: process.memoryUsage(), pets: mock.pets.size });
  } else if (message.type === 'reset') {
    mock.reset();
    process.send!({ type: 'reset', pets: mock.pets.size });
  } else if (message.type === 'close') {
    void mock.close().then(() => process.exit(0));
  }
});
