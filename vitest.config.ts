import { defineConfig } from 'vitest/config';

/** Tests beside their sources with no socket and no child process: `npm run test:unit`. */
const UNIT = [
  'spec/**/*.test.ts',
  'guard/*.test.ts',
  'mock/core/**/*.test.ts',
  'mock/msw/*.test.ts',
  'mock/undici/*.test.ts',
  'mock/node/fixtures.test.ts',
  'conformance/*.test.ts',
  'conformance/cases/*.test.ts',
  'conformance/cli/*.test.ts',
  'conformance/client/*.test.ts',
  'conformance/judge/*.test.ts',
  'conformance/run/*.test.ts',
  'conformance/report/*.test.ts',
  'conformance/generate/*.test.ts',
  'conformance/traffic/*.test.ts',
];

// msw 3 needs Node 22.12 (it calls Promise.withResolvers while intercepting): on an older Node the
// tests run the MSW adapter over msw 2, the other major its peer range allows (devDependency msw-2).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const mswAlias: Record<string, string> = major > 22 || (major === 22 && minor >= 12) ? {} : { msw: 'msw-2' };

export default defineConfig({
  test: {
    // Most integration files wait on sockets and child processes, not the CPU: three workers on two cores take
    // `vitest run` from 5m43s to 3m43s here (the default, cores - 1, is one worker on such a machine).
    maxWorkers: 3,
    projects: [
      // One module graph for the unit files (no re-import per file: 12 s -> 5 s); they hold no shared state,
      // and the two that fake timers restore real ones after each test (shuffled runs pass).
      // The per-test limit is generous for the same reason as below: a property test that takes 3 s on a quiet machine
      // took 8 s with the two cores busy; the project's whole run is what stays under 10 s.
      { test: { name: 'unit', include: UNIT, isolate: false, testTimeout: 30_000 } },
      {
        resolve: { alias: mswAlias },
        test: {
          name: 'integration',
          include: ['**/*.test.ts'],
          // .stryker-tmp: the sandboxes of a mutation run (npm run mutation) hold a copy of every test.
          exclude: ['node_modules/**', 'dist/**', '.stryker-tmp/**', ...UNIT],
          // Generous, not tight: a test that spawns the CLI (tsx compiling the suite) or three of them (the mTLS
          // test) took over 30 s, one CLI run over 60 s, with the two cores busy (load 8 to 25); all passed on a quiet
          // machine. The limits are for a hang, which none of these tests measures: what they assert holds at any speed.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
