/**
 * Reads the OpenAPI document from `petstore.openapi.yaml`. The mock's bundle
 * (mock/start.cjs) swaps this module for the same document already parsed to
 * JSON at build time, so a start does not parse YAML; everything else reads
 * the file through here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

/** Absolute path of the OpenAPI document. */
export const SPEC_PATH = fileURLToPath(new URL('./petstore.openapi.yaml', import.meta.url));

/** Parses the document afresh (spec/index.ts keeps the one copy everything shares). */
export function readSpecDocument(): unknown {
  return parseYaml(readFileSync(SPEC_PATH, 'utf8'));
}
