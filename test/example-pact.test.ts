/**
 * examples/pact runs as written: its vitest suite writes the very pact checked in beside it (so the file read in
 * the README is the one the suite makes), and its verification passes against the reference mock.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'example-pact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CHECKED_IN = join(ROOT, 'examples', 'pact', 'pacts', 'shop-web-petstore.json');

it('the client suite writes the pact checked in', async () => {
  const run = await runProcess(
    [process.execPath, join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', 'examples/pact'],
    // A nested vitest with pact-js: about 20 s on a quiet machine, minutes on a loaded one.
    { env: { ...process.env, NO_COLOR: '1', PACT_DIR: dir }, timeoutMs: 170_000 },
  );
  expect(run.code, run.stderr + run.stdout).toBe(0);
  expect(readFileSync(join(dir, 'shop-web-petstore.json'), 'utf8')).toBe(readFileSync(CHECKED_IN, 'utf8'));
  // The hand-written pact-js consumer test wrote its own pact beside it: the interactions checked in (other tests
  // verify that file beside the mock's), its path as the client sent it.
  const handwritten = JSON.parse(readFileSync(join(dir, 'shop-web-handwritten-petstore.json'), 'utf8'));
  expect(handwritten.interactions.map((i: { description: string }) => i.description)).toEqual(['getPet for pet 7']);
  expect(handwritten.interactions[0].request.path).toBe('/v1/pets/7');
  const checkedIn = JSON.parse(
    readFileSync(join(ROOT, 'examples', 'pact', 'pacts', 'shop-web-handwritten-petstore.json'), 'utf8'),
  );
  expect(handwritten.interactions).toEqual(checkedIn.interactions);
}, 180_000);

it('the hand-written pact-js pact passes verification against the mock, through its provider-states endpoint', async () => {
  const run = await runProcess([process.execPath, 'examples/pact/verify.mjs'], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      PACT_DO_NOT_TRACK: 'true',
      PACT_FILE: 'examples/pact/pacts/shop-web-handwritten-petstore.json',
    },
    timeoutMs: 90_000,
  });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const report = run.stdout.replace(/\u001b\[[0-9;]*m/g, '');
  expect(report).toMatch(/getPet for pet 7[\s\S]*Given a pet with id 7 exists[\s\S]*has a matching body \(OK\)/);
}, 120_000);

it('the checked-in pact passes verification against the mock with another seed', async () => {
  const run = await runProcess([process.execPath, 'examples/pact/verify.mjs'], {
    env: { ...process.env, NO_COLOR: '1', PACT_DO_NOT_TRACK: 'true' },
    timeoutMs: 90_000,
  });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  expect(run.stdout).toContain('getPet for an existing id');
  expect(run.stdout).not.toMatch(/Failures:/);
}, 120_000);
