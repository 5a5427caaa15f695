/**
 * The mock's exported pact, verified by Pact's own verifier (pact-js 16.4, the last to run on Node 20; its
 * native core comes from the npm registry) as a server team would run it: against the mock started with another
 * seed and key through its provider-states endpoint (passes), against a provider that answers `categoryId` as a
 * string (fails, naming the interactions), and against a provider with other pets that honours the contract
 * (passes); each with the provider's origin as its base URL, and beside a pact a pact-js consumer test wrote
 * (examples/pact), since a provider verifies all its consumers' pacts with one base URL. PactFlow's
 * swagger-mock-validator finds the pact consistent with the OpenAPI document.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';
import { startPactProvider } from './support/pact-provider.ts';
import { ROOT, runProcess, stopAllProcesses, tsxEntry } from './support/processes.ts';

const CONSUMER_KEY = 'consumer-side-key-0123456789';
const PROVIDER_KEY = 'provider-side-key-9876543210';
const dir = mkdtempSync(join(tmpdir(), 'pact-verify-'));
const pactFile = join(dir, 'shop-web-petstore.json');
const forcedPactFile = join(dir, 'shop-web-forced-petstore.json');
const openapiPactFile = join(dir, 'shop-web-openapi-petstore.json');
/** The pact examples/pact's pact-js consumer test writes (test/example-pact.test.ts keeps it the file it writes). */
const HANDWRITTEN = join(ROOT, 'examples', 'pact', 'pacts', 'shop-web-handwritten-petstore.json');
let pactText = '';

/** A client's test run against the mock: every kind of request once or more. */
beforeAll(async () => {
  const mock = await startMockServer({ apiKeys: [CONSUMER_KEY] });
  const auth = { authorization: `Bearer ${CONSUMER_KEY}` };
  const get = (path: string, headers: Record<string, string> = auth) => fetch(`${mock.url}${path}`, { headers });
  const post = (body: unknown) =>
    fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    for (let i = 0; i < 20; i++) await get('/pets');
    await get('/pets?status=available');
    await get('/pets?limit=2');
    await get('/pets/3');
    await get('/pets/9999');
    await get('/pets', {});
    await post({ name: 'Rex', categoryId: 2 });
    await post({ name: 'Tom', categoryId: 3, status: 'pending' });
    await get('/pets?limit=0');
    await get('/pets?limit=2', { ...auth, prefer: 'code=503' });
    mock.replacePets([]);
    await get('/pets');
    pactText = JSON.stringify(mock.pact({ consumer: 'shop-web', provider: 'petstore' }), null, 2);
    writeFileSync(pactFile, pactText);
    const forced = mock.pact({ consumer: 'shop-web-forced', provider: 'petstore', include: ['prefer'] });
    writeFileSync(forcedPactFile, JSON.stringify(forced));
    writeFileSync(
      openapiPactFile,
      JSON.stringify(mock.pact({ consumer: 'shop-web', provider: 'petstore', paths: 'openapi' })),
    );
  } finally {
    await mock.close();
  }
}, 30_000);

afterEach(stopAllProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the verifier in its own process (its native core reports on stdout), ANSI colours removed. */
async function verify(baseUrl: string, statesUrl: string, key: string, file = pactFile, keyEverywhere = false) {
  const ran = await runProcess([...tsxEntry('test/support/pact-verify.ts'), file, baseUrl, statesUrl], {
    env: {
      ...process.env,
      PACT_PROVIDER_KEY: key,
      PACT_DO_NOT_TRACK: 'true',
      NO_COLOR: '1',
      PACT_KEY_EVERYWHERE: keyEverywhere ? '1' : '',
    },
    timeoutMs: 90_000,
  });
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
  return { code: ran.code, stdout: plain(ran.stdout), stderr: plain(ran.stderr) };
}

const DESCRIPTIONS = [
  'listPets',
  'listPets with status=available',
  'listPets with limit',
  'getPet for an existing id',
  'getPet for an unknown id',
  'listPets without a key',
  'createPet without status',
  'createPet with every field',
  'listPets when there are none to list',
];

describe('the exported pact', () => {
  it('holds one interaction per kind, the refused request named, and no key', () => {
    const pact = JSON.parse(pactText);
    expect(pact.interactions.map((i: { description: string }) => i.description)).toEqual(DESCRIPTIONS);
    // The paths as the client sent them, as pact-js consumer tests write theirs.
    const paths = pact.interactions.map((i: { request: { path: string } }) => i.request.path);
    expect(new Set(paths)).toEqual(new Set(['/v1/pets', '/v1/pets/3', '/v1/pets/9999']));
    expect(JSON.parse(readFileSync(HANDWRITTEN, 'utf8')).interactions[0].request.path).toBe('/v1/pets/7');
    expect(pact.metadata.petstoreMock.skipped.map((s: { kind: string }) => s.kind)).toEqual([
      'listPets 400: limit must be an integer from 1 to 100',
    ]);
    expect(pactText).not.toContain(CONSUMER_KEY);
  });

  /** PactFlow's comparison of a pact with the OpenAPI document (swagger-mock-validator). */
  const compare = (file: string) =>
    runProcess(
      [
        process.execPath,
        'node_modules/@pactflow/swagger-mock-validator/bin/swagger-mock-validator.mjs',
        'spec/petstore.openapi.yaml',
        file,
      ],
      { timeoutMs: 60_000 },
    );

  it("with paths: 'openapi', is consistent with the OpenAPI document for PactFlow (no error, no warning); as sent, it is not", async () => {
    const [openapi, sent] = await Promise.all([compare(openapiPactFile), compare(pactFile)]);
    expect(openapi.stdout).toMatch(/0 error\(s\)\s+0 warning\(s\)/);
    expect(openapi.code).toBe(0);
    expect(JSON.parse(readFileSync(openapiPactFile, 'utf8')).interactions[0].request.path).toBe('/pets');
    // The validator reads an OpenAPI 3 document's paths without its server's /v1: the reason the option exists.
    expect(sent.stdout).toMatch(/request\.path-or-method\.unknown/);
    expect(sent.code).not.toBe(0);
  }, 90_000); // two validator processes, each several seconds on a busy machine
});

describe("Pact's verifier", () => {
  it("(a) passes against the mock with another seed and key at its origin, beside a pact-js consumer test's pact", async () => {
    const provider = await startMockServer({ apiKeys: [PROVIDER_KEY], seed: 7 });
    try {
      await provider.ready;
      const origin = new URL(provider.url).origin;
      const files = `${pactFile},${HANDWRITTEN}`;
      const run = await verify(origin, `${origin}/__control/provider-states`, PROVIDER_KEY, files);
      expect(run.stdout).toContain('Verifying a pact between shop-web and petstore');
      expect(run.stdout).toContain('Verifying a pact between shop-web-handwritten and petstore');
      expect(run.stdout).toMatch(/getPet for pet 7[\s\S]*has a matching body \(OK\)/);
      for (const description of DESCRIPTIONS) expect(run.stdout).toContain(`  ${description} (`);
      expect(run.stdout).not.toMatch(/Failures:|FAILED/);
      expect(run.code).toBe(0);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('passes with an answer a test forced, included under "the service answers 503", against the mock', async () => {
    const provider = await startMockServer({ apiKeys: [PROVIDER_KEY], seed: 7 });
    try {
      await provider.ready;
      const origin = new URL(provider.url).origin;
      const run = await verify(origin, `${origin}/__control/provider-states`, PROVIDER_KEY, forcedPactFile);
      expect(run.stdout).toMatch(
        /listPets with limit when the service answers 503[\s\S]*Given the service answers 503/,
      );
      expect(run.stdout).not.toMatch(/Failures:/);
      expect(run.code).toBe(0);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it("passes with paths: 'openapi' against a provider whose base URL ends in /v1", async () => {
    const provider = await startPactProvider({ key: PROVIDER_KEY });
    try {
      const run = await verify(`${provider.origin}/v1`, `${provider.origin}/_states`, PROVIDER_KEY, openapiPactFile);
      expect(run.stdout).toContain('  getPet for an existing id (');
      expect(run.stdout).not.toMatch(/Failures:/);
      expect(run.code).toBe(0);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('(b) fails against a provider that answers categoryId as a string, naming each interaction', async () => {
    const provider = await startPactProvider({ key: PROVIDER_KEY, categoryIdAsString: true });
    try {
      const run = await verify(provider.origin, `${provider.origin}/_states`, PROVIDER_KEY);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/There were \d+ pact failures/);
      for (const name of ['listPets', 'getPet for an existing id', 'createPet without status'])
        expect(run.stdout).toMatch(new RegExp(`\\d+\\) Verifying a pact between shop-web and petstore.* - ${name}\\n`));
      expect(run.stdout).toMatch(/categoryId/);
      // What broke nothing passes: the 404 and the 401 are as the contract has them.
      expect(run.stdout).not.toMatch(
        /- (getPet for an unknown id|listPets without a key|listPets when there are none to list)\n/,
      );
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('(c) passes against a provider with other pets and its own choices that honours the contract', async () => {
    const provider = await startPactProvider({ key: PROVIDER_KEY });
    try {
      const run = await verify(provider.origin, `${provider.origin}/_states`, PROVIDER_KEY);
      expect(run.stdout).not.toMatch(/Failures:/);
      expect(run.code).toBe(0);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('needs the filter to leave a request without a key as it is: the key added to every request fails its 401', async () => {
    const provider = await startPactProvider({ key: PROVIDER_KEY });
    try {
      const run = await verify(provider.origin, `${provider.origin}/_states`, PROVIDER_KEY, pactFile, true);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/\d+\) Verifying a pact between shop-web and petstore - listPets without a key\n/);
      expect(run.stdout).toMatch(/There were 1 pact failures/);
    } finally {
      await provider.close();
    }
  }, 120_000);
});
