// One mock for the whole run, started by globalSetup; the gate runs when every test file is done.
export default { test: { globalSetup: ['./petstore.global.mjs'] } };
