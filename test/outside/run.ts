/**
 * The suite against servers nobody on this project wrote (test/outside/targets.ts):
 * every cause each run reports must be one reviewed as true.
 *
 *   npm run outside                          every target (about two minutes)
 *   npm run outside -- express prism-oai     only those (ids: json-server, express, prism-oai, fastify,
 *                                            fastify-errors, nest, hono, java, mojolicious, python,
 *                                            mock-chaos, mock-rate-limit)
 *
 * The Java, Perl and Python servers need their Debian toolchains: the npm script brings them first
 * (node scripts/system-packages.mjs outside).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopAllProcesses } from '../support/processes.ts';
import { runTarget, TARGETS } from './targets.ts';

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((id) => !TARGETS.some((t) => t.id === id));
  if (unknown.length > 0) {
    console.error(`unknown target ${unknown.join(', ')}: choose from ${TARGETS.map((t) => t.id).join(', ')}`);
    return 2;
  }
  const targets = TARGETS.filter((t) => wanted.length === 0 || wanted.includes(t.id));
  const dir = mkdtempSync(join(tmpdir(), 'outside-'));
  let failed = 0;
  try {
    for (const t of targets) {
      console.log(`${t.id}: ${t.name}`);
      const { lines, problems } = await runTarget(t, dir);
      console.log([...lines, ...problems.map((p) => `  problem: ${p}`)].join('\n'));
      if (problems.length > 0) failed++;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stopAllProcesses();
  }
  console.log(
    failed === 0
      ? `${targets.length} outside targets: every cause reviewed and true, every exit code as it must be`
      : `${failed} of ${targets.length} outside targets differ from their review`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
