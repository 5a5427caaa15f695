// The undici dispatcher as the global one (Node's own fetch), then the whole conformance suite through it, in-process.
import { runConformance } from 'petstore-toolkit/conformance';
import { createMockDispatcher } from 'petstore-toolkit/undici';
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';

const dispatcher = createMockDispatcher({ apiKeys: ['undici-key'] });
const previous = getGlobalDispatcher();
setGlobalDispatcher(dispatcher);
let status;
try {
  status = (await fetch(`${dispatcher.url}/pets/1`, { headers: { authorization: 'Bearer undici-key' } })).status;
} finally {
  setGlobalDispatcher(previous);
}
const report = await runConformance({ baseUrl: dispatcher.url, apiKey: 'undici-key', strict: true, dispatcher });
console.log(JSON.stringify({ status, ok: report.ok, failed: report.summary.failed, passed: report.summary.passed }));
