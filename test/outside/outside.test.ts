/**
 * The quick outside targets on every `npm test`: json-server, the Express app,
 * Prism on the OAI example and the Fastify and Hono apps (in process) each get
 * exactly their reviewed causes (the NestJS app boots its own process, and the
 * chaos and rate-limit mocks take half a minute: `npm run outside`, and
 * test/conformance-generated-mock.test.ts covers the mocks).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTarget, TARGETS } from './targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'outside-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the suite against servers nobody here wrote', () => {
  it.each(['json-server', 'express', 'prism-oai', 'fastify', 'fastify-errors', 'hono'])(
    '%s: every cause reported is a reviewed, true one',
    async (id) => {
      const { lines, problems } = await runTarget(TARGETS.find((t) => t.id === id)!, dir);
      expect(problems, lines.join('\n')).toEqual([]);
    },
    90_000,
  );
});
