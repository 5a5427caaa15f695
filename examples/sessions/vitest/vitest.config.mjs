// One mock for the whole run (globalSetup); three test files at once, each test in a session of its own.
export default { test: { globalSetup: ['./petstore.global.mjs'], maxWorkers: 3, testTimeout: 30_000 } };
