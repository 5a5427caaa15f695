// One mock for the whole run: globalSetup starts it, globalTeardown gates the run on what the tests exercised.
module.exports = { globalSetup: './petstore-setup.js', globalTeardown: './petstore-teardown.js' };
