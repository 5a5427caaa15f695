// The example's own vitest settings (the defaults), so that it runs apart from this repository's tests.
export default { test: {} };
