// Vite for the example: `petstore-toolkit/msw` is this repository's source, and MSW's worker script is
// served in development and copied into the build, at /mockServiceWorker.js where MSW looks for it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** MSW's own `mockServiceWorker.js`, from the installed msw: never a stale committed copy. */
function mswWorker(): Plugin {
  const source = () => readFileSync(require.resolve('msw/mockServiceWorker.js'));
  return {
    name: 'msw-worker',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(source());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source: source() });
    },
  };
}

export const config = defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { 'petstore-toolkit/msw': fileURLToPath(new URL('../../mock/msw/index.ts', import.meta.url)) } },
  build: { target: 'es2022' },
  plugins: [mswWorker()],
});

// Vite reads a config file's default export; the project's other modules use named exports only.
export default config;
