/**
 * undici itself, for the suite's client. On Bun, `import 'undici'` gives Bun's
 * built-in stand-in, whose Agent has no request() or close(); there the
 * package's own files are loaded instead, so the suite sends every request
 * through the same code on Node, Bun and Deno: no redirect followed, no body
 * inflated, the same timeouts and errors (see docs/runtimes.md).
 */
import { dirname, join } from 'node:path';
import * as imported from 'undici';

/** The undici module's exports. */
type Undici = typeof imported;

/**
 * True when `dispatcher` is one of undici's: it has request() (Bun's stand-in's dispatchers do not) and dispatch(),
 * which the client sends through.
 */
export function canRequest(dispatcher: unknown): boolean {
  const d = dispatcher as { request?: unknown; dispatch?: unknown } | null;
  return typeof d?.request === 'function' && typeof d.dispatch === 'function';
}

function load(): Undici {
  // Bun defines require in ES modules too; a runtime without it keeps what it gave (runConformance then says so).
  if (canRequest(imported.Dispatcher.prototype) || typeof require !== 'function') return imported;
  return require(join(dirname(require.resolve('undici/package.json')), 'index.js')) as Undici;
}

/** The real undici on every runtime. */
export const undici: Undici = load();
