/**
 * Starts one of the bench's own servers in this process and prints its URL:
 * `cli.ts --variant minimal|key|handler --api-key K [--answers FILE]`. The bench
 * runs it bundled as plain JavaScript beside the installed package (bench/install.ts);
 * bench/layers.ts says what each server is for.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
// The mock's internals by relative import (bundled from the sources by esbuild): they are no part of the package's API.
import { createAuthenticator } from '../../mock/core/auth.ts';
import { shippedPets } from '../../mock/core/default-pets.ts';
import { createHandler } from '../../mock/core/handler.ts';
import { compose } from '../../mock/core/layers.ts';
import { createPetStore } from '../../mock/core/store.ts';
import { createHandlerServer } from './handler.ts';
import { createMinimalServer, type FixedAnswers, plainKeyCheck } from './minimal.ts';

/** The servers this entry can start. */
export const VARIANTS = ['minimal', 'key', 'handler'] as const;

/** One of {@link VARIANTS}. */
export type Variant = (typeof VARIANTS)[number];

/** Options for {@link createVariantServer}. */
export interface VariantOptions {
  variant: Variant;
  apiKey: string;
  /** The fixed answers of the minimal server and of its key-check rung. */
  answers?: FixedAnswers;
}

/** Makes the named server (not listening yet). */
export function createVariantServer({ variant, apiKey, answers }: VariantOptions): Server {
  // The route itself: the mock's one pipeline (routing, key check, operation) with no layer switched on.
  if (variant === 'handler') {
    // The default seed's pets, which ship as data (no faker): the store createMock seeds, without its layers.
    const store = createPetStore(shippedPets());
    return createHandlerServer({ fetch: compose([], createHandler({ store, apiKeys: [apiKey] })), reset: store.reset });
  }
  if (!answers) throw new Error(`the ${variant} server needs --answers`);
  if (variant === 'minimal') return createMinimalServer({ answers, authorized: plainKeyCheck(apiKey) });
  const authenticate = createAuthenticator([apiKey]);
  return createMinimalServer({ answers, authorized: (header) => authenticate(header) === null });
}

function main(): void {
  const { values } = parseArgs({
    options: { variant: { type: 'string' }, 'api-key': { type: 'string' }, answers: { type: 'string' } },
  });
  const variant = values.variant as Variant;
  if (!VARIANTS.includes(variant) || !values['api-key'])
    throw new Error(`usage: cli.ts --variant ${VARIANTS.join('|')} --api-key KEY [--answers FILE]`);
  const answers = values.answers ? (JSON.parse(readFileSync(values.answers, 'utf8')) as FixedAnswers) : undefined;
  const server = createVariantServer({ variant, apiKey: values['api-key'], answers });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${variant} server at http://127.0.0.1:${(server.address() as AddressInfo).port}/v1\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
