import { describe, expect, it } from 'vitest';
import { serverArgs } from './answers.ts';
import type { InstalledProject } from './install.ts';
import { benchServers, LAYERS, mocksBefore } from './layers.ts';
import { peerCommand } from './peers.ts';
import { argvOf, commandOf, NODE_FLAGS } from './throughput.ts';

const project = {
  mockBin: 'node_modules/petstore-toolkit/dist/mock/node/cli.js',
  benchServers: 'bench-servers.mjs',
} as InstalledProject;

/** What is spawned, with `node` for this process's node: as the tables show it. */
const asShown = (argv: readonly string[]) => argv.map((a) => (a === process.execPath ? 'node' : a));

describe("the throughput section's servers", () => {
  // Every server of the section, --before's mocks too (started from another tree's bin).
  const servers = benchServers(LAYERS, mocksBefore('/trees/main'));

  it.each(servers.map((s) => [s.key, s] as const))(
    '%s is started pinned (taskset -c CPU), with node and every NODE_FLAGS entry before its script',
    (_, server) => {
      const args = serverArgs(server, project, 'K', 'answers.json');
      expect(argvOf(server, project, 'K', 'answers.json', '1')).toEqual([
        'taskset',
        '-c',
        '1',
        process.execPath,
        ...NODE_FLAGS,
        ...args,
      ]);
      // Unpinned (no taskset or one CPU): the same, without taskset.
      expect(argvOf(server, project, 'K', 'answers.json', undefined)).toEqual([
        process.execPath,
        ...NODE_FLAGS,
        ...args,
      ]);
    },
  );

  it.each(servers.map((s) => [s.key, s] as const))(
    '%s is shown as it is started: the same taskset, node, flags and script (a flag in one only fails)',
    (_, server) => {
      for (const cpu of ['1', undefined]) {
        const ran = asShown(argvOf(server, project, 'K', 'answers.json', cpu));
        // Through the script: what follows it differs on purpose (the answers file, the key as K).
        const through = ran.indexOf(serverArgs(server, project, 'K', 'answers.json')[0]!) + 1;
        expect(through).toBe((cpu === undefined ? 2 : 5) + NODE_FLAGS.length);
        expect(commandOf(server, project, cpu).split(' ').slice(0, through)).toEqual(ran.slice(0, through));
      }
    },
  );
});

describe("the peers' servers", () => {
  const args = [project.mockBin, '--port', '40123', '--api-key', 'secret', '--quiet'];

  it("are started pinned with node and none of the throughput section's flags, and shown as started", () => {
    const { argv, shown } = peerCommand(args, '1', 'secret', 40123);
    expect(argv.filter((a) => NODE_FLAGS.includes(a))).toEqual([]);
    expect(argv).toEqual(['taskset', '-c', '1', process.execPath, ...args]);
    expect(shown).toBe(`taskset -c 1 node ${project.mockBin} --port P --api-key K --quiet`);
    expect(shown).toBe(asShown(argv).join(' ').replace('40123', 'P').replace('secret', 'K'));
  });

  it('are started unpinned without taskset, with no flags either', () => {
    const { argv, shown } = peerCommand(args, undefined, 'secret', 40123);
    expect(argv).toEqual([process.execPath, ...args]);
    expect(shown).toBe(`node ${project.mockBin} --port P --api-key K --quiet`);
  });
});
