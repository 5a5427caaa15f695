/**
 * Files of the package on disk, for Node code only: the OpenAPI document, for
 * tools that read the file itself (Prism, Spectral, the build; the rest of the
 * project reads it already parsed, from spec/generated/document.ts), and the
 * package's version, for `--version`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * This module's URL. In the CommonJS build `import.meta` is empty, and the file is the bundle itself
 * (`__filename`): only paths found by walking up from it (the package's own package.json) hold there.
 */
function here(): string {
  return typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(__filename).href;
}

/** Absolute path of the OpenAPI document (for the ES module sources and build: Prism, Spectral, the generator). */
export const SPEC_PATH = fileURLToPath(new URL('./petstore.openapi.yaml', here()));

/** Set at build time by the single-file executables' bundle (esbuild `define`): no package.json is beside them. */
declare const PETSTORE_TOOLKIT_VERSION: string | undefined;

/** The version in the package's own package.json, found upward from this file (in the sources or in dist/). */
export function packageVersion(): string {
  if (typeof PETSTORE_TOOLKIT_VERSION === 'string') return PETSTORE_TOOLKIT_VERSION;
  for (let dir = new URL('./', here()); ; dir = new URL('../', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'petstore-toolkit' && pkg.version) return pkg.version;
    } catch {
      // No package.json here: look further up.
    }
    if (dir.pathname === '/') throw new Error('package.json of petstore-toolkit not found');
  }
}
