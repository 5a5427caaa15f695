// One mock for every worker, and the app under test: a page whose API base URL is fixed when it is built
// (here, written into the page), so a session can only be chosen by header, not by URL.
import { createServer } from 'node:http';
import { startMockServer } from 'petstore-toolkit/mock';

export default async function globalSetup() {
  const petstore = await startMockServer({ port: 0, seed: 1, count: 5, apiKeys: ['test-key'] });
  const page = `<!doctype html><title>pets</title><p id="status">loading</p><ul id="pets"></ul>
<script type="module">
  const API = ${JSON.stringify(petstore.url)};
  const response = await fetch(API + '/pets', { headers: { authorization: 'Bearer test-key' } });
  document.querySelector('#status').textContent = String(response.status);
  if (response.ok)
    for (const pet of await response.json()) document.querySelector('#pets').append(Object.assign(document.createElement('li'), { textContent: pet.name }));
</script>`;
  const app = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  process.env.PETSTORE_URL = petstore.url;
  process.env.APP_URL = `http://127.0.0.1:${app.address().port}`;
  return async () => {
    app.close();
    await petstore.close();
  };
}
