/**
 * Files of the package on disk, for Node code only: the OpenAPI document, for
 * tools that read the file itself (Prism, Spectral, the build; the rest of the
 * project reads it already parsed, from spec/generated/document.ts), and the
 * package's version, for `--version`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the OpenAPI document. */
export const SPEC_PATH = fileURLToPath(new URL('./petstore.openapi.yaml', import.meta.url));

/** The version in the package's own package.json, found upward from this file (in the sources or in dist/). */
export function packageVersion(): string {
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'petstore-toolkit' && pkg.version) return pkg.version;
    } catch {
      // No package.json here: look further up.
    }
    if (dir.pathname === '/') throw new Error('package.json of petstore-toolkit not found');
  }
}
