// One mock for the whole run (globalSetup), test files in parallel, each test in a session of its own.
module.exports = {
  globalSetup: './petstore-setup.js',
  globalTeardown: './petstore-teardown.js',
  maxWorkers: 2,
  testTimeout: 30_000,
};
