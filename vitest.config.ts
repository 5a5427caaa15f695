import { defineConfig } from 'vitest/config';

/** Tests beside their sources with no socket and no child process: `npm run test:unit`. */
const UNIT = [
  'spec/**/*.test.ts',
  'mock/core/**/*.test.ts',
  'mock/node/fixtures.test.ts',
  'conformance/*.test.ts',
  'conformance/report/*.test.ts',
  'conformance/generate/*.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: UNIT } },
      {
        test: {
          name: 'integration',
          include: ['**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**', ...UNIT],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
