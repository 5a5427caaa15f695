// Two workers, one mock, one app: each worker's browser context sends its own Petstore-Session header
// (petstore.fixture.mjs), so what one worker forces on the mock the other never sees.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  workers: 2,
  fullyParallel: true,
  globalSetup: './global-setup.mjs',
  // Generous: a loaded CI machine starts Chromium slowly.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  use: {
    baseURL: process.env.APP_URL,
    launchOptions: {
      // Any Chromium: Debian's here (CHROMIUM_PATH to pick another); Playwright's own download works as well.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
