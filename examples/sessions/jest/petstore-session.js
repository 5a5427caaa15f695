// A session per test: call usePetstoreSession() at the top of a test file; `petstore.url` and `petstore.control`
// are that test's session (its own pets, scenarios, journal), made before it and ended after it.
function usePetstoreSession() {
  const root = process.env.PETSTORE_URL.replace(/\/v1$/, '');
  const petstore = { name: '', url: '', control: '' };
  beforeEach(async () => {
    const made = await fetch(`${root}/__control/sessions`, { method: 'POST' });
    if (made.status !== 201) throw new Error(`no session: ${made.status} ${await made.text()}`);
    Object.assign(petstore, await made.json());
  });
  afterEach(() => fetch(`${root}/__control/sessions/${petstore.name}`, { method: 'DELETE' }));
  return petstore;
}

module.exports = { usePetstoreSession };
