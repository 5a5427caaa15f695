/**
 * The mock's profile: spec/mock.overlay.yaml (an OpenAPI Overlay 1.0
 * document) applied to the contract with openapi-format's overlay engine.
 * Every action must change something, so a target that no longer matches
 * the contract fails the build instead of silently dropping a choice.
 */
import { readFileSync } from 'node:fs';
import { openapiOverlay } from 'openapi-format';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument } from '../openapi-document.ts';

/** Absolute path of the overlay. */
const OVERLAY_PATH = new URL('../mock.overlay.yaml', import.meta.url);

/** Applies the overlay to `contract` (which it may change) and returns the profile. */
export async function applyMockOverlay(contract: OpenApiDocument): Promise<OpenApiDocument> {
  const overlay = parseYaml(readFileSync(OVERLAY_PATH, 'utf8')) as { overlay: string; actions: { target: string }[] };
  if (!/^1\.0\.\d+$/.test(overlay.overlay))
    throw new Error(`spec/mock.overlay.yaml: expected Overlay 1.0.x, got ${overlay.overlay}`);
  const result = await openapiOverlay(contract as never, { overlaySet: overlay as never });
  const unused = result.resultData.unusedActions as { target: string }[];
  if (unused.length > 0)
    throw new Error(`spec/mock.overlay.yaml: actions matched nothing: ${unused.map((a) => a.target).join(', ')}`);
  return result.data as unknown as OpenApiDocument;
}
