/**
 * How the bench starts each of its servers in the installed project, and the
 * answers the minimal server gives: taken, at each store size, from a mock of
 * their own, stopped before anything is measured.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstalledProject } from './install.ts';
import type { BenchServer } from './layers.ts';
import { spawnServer, waitForOutput } from './processes.ts';
import { captureAnswers } from './servers/index.ts';

/** What a server prints once it listens; the match is its base URL, ending in /v1. */
export const LISTENING = /at (http:\/\/\S+\/v1)\n/;

/** The arguments of `node` that start `server` (the minimal server and its rungs read `answersFile`). */
export function serverArgs(
  server: BenchServer,
  project: InstalledProject,
  apiKey: string,
  answersFile: string,
): string[] {
  const s = server.start;
  if (s.kind === 'bench')
    return [project.benchServers, '--variant', s.variant, '--api-key', apiKey, '--answers', answersFile];
  const count = server.pets === 50 || s.args.includes('--count') ? [] : ['--count', String(server.pets)];
  return [s.bin ?? project.mockBin, '--port', '0', '--api-key', apiKey, ...count, ...s.args];
}

/** Writes the mock's answers at each store size `servers` run at; the file of each size. */
export async function writeAnswerFiles(
  servers: readonly BenchServer[],
  project: InstalledProject,
  apiKey: string,
): Promise<Map<number, string>> {
  const files = new Map<number, string>();
  for (const pets of new Set(servers.map((s) => s.pets))) {
    const capturer = spawnServer({
      command: process.execPath,
      args: [project.mockBin, '--port', '0', '--api-key', apiKey, '--quiet', '--count', String(pets)],
      cwd: project.dir,
    });
    const file = join(project.dir, `minimal-answers-${pets}.json`);
    try {
      const { match } = await waitForOutput(capturer, LISTENING);
      writeFileSync(file, JSON.stringify(await captureAnswers({ base: match[1]!, apiKey })));
    } finally {
      await capturer.stop();
    }
    files.set(pets, file);
  }
  return files;
}
