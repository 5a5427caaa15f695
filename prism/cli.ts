/**
 * `npm run mock:prism` and `npm run proxy -- --upstream URL`: Prism's
 * spec-only mock, or its validation proxy, on spec/petstore.openapi.yaml.
 * Prism's own log goes to stdout; Ctrl-C ends Prism and everything it started.
 */
import { HELP, parseCommandLine } from './command-line.ts';
import { type PrismOptions, startPrism } from './index.ts';

async function main(): Promise<number> {
  let options: PrismOptions | 'help';
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`prism: ${(error as Error).message}\nTry --help.\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const prism = await startPrism({ ...options, onOutput: (text) => process.stdout.write(text) }).catch(
    (error: Error) => {
      process.stderr.write(`prism: could not start Prism: ${error.message}\n`);
      return undefined;
    },
  );
  if (!prism) return 1;
  const what =
    options.mode === 'mock' ? "Prism's stateless mock" : `Prism's validation proxy in front of ${options.upstream}`;
  process.stdout.write(`${what} at ${prism.url} (paths at the root: ${prism.url}/pets). Ctrl-C stops it.\n`);
  let stopping = false;
  const stop = (): void => {
    stopping = true;
    void prism.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  void prism.exited.then((how) => {
    if (stopping) return;
    process.stderr.write(`prism: Prism exited unexpectedly (${how})\n`);
    process.exit(1);
  });
  return -1;
}

const code = await main();
if (code >= 0) process.exitCode = code;
