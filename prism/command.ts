/**
 * The `npm run mock:prism` / `npm run proxy` command as a function: its help
 * text, the parser that turns arguments into {@link PrismOptions}, and `main`,
 * which runs Prism until SIGINT or SIGTERM. `cli.ts` is the entry that calls it.
 */
import { parseArgs } from 'node:util';
import { type PrismOptions, startPrism } from './index.ts';

/** The `--help` text. */
const HELP = `Usage: npm run mock:prism -- [options]
       npm run proxy -- --upstream URL [options]

mock    Prism's stateless mock of spec/petstore.openapi.yaml: answers from the spec
        alone (static examples, or generated ones with --dynamic) and validates requests.
proxy   Prism's validation proxy: forwards every request to --upstream and reports
        contract violations of requests and responses in its log and in the
        sl-violations response header.

Prism serves the spec's paths at the root: use http://HOST:PORT/pets, not /v1/pets.
Give --upstream with its base path, e.g. http://127.0.0.1:4010/v1.

Options:
  --port N          port to listen on; 0 picks a free one    default 4011 (mock), 4012 (proxy)
  --host H          interface to bind                         default 127.0.0.1
  --upstream URL    proxy: the server to forward to (required)
  --errors          Prism's --errors. proxy: invalid requests are answered by Prism
                    (401/422) and not forwarded, and a response violating the spec
                    becomes a 500 problem+json; mock: response violations become errors
  --dynamic         mock: generate responses from the schemas (json-schema-faker)
  --seed S          mock, with --dynamic: seed for reproducible responses
  --cors / --no-cors
                    Prism's CORS handling (answers preflights itself, adds
                    permissive headers). Default on for mock, off for proxy, so the
                    proxy passes the upstream's CORS through unchanged
  --spec FILE       another OpenAPI document                  default spec/petstore.openapi.yaml
  -h, --help        show this text

Examples:
  npm run mock:prism
  curl -H "Authorization: Bearer anything" http://127.0.0.1:4011/pets
  npm start & npm run proxy -- --upstream http://127.0.0.1:4010/v1
  curl -i -H "Authorization: Bearer petstore-dev-key" "http://127.0.0.1:4012/pets?limit=0"`;

/** A command line that cannot be run; the CLI prints it and exits 2. */
class UsageError extends Error {}

type Mode = PrismOptions['mode'];

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const port = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  return port;
}

/** Turns the command line into startPrism options, or `'help'`. */
export function parseCommandLine(argv: string[]): PrismOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      upstream: { type: 'string' },
      errors: { type: 'boolean' },
      dynamic: { type: 'boolean' },
      seed: { type: 'string' },
      cors: { type: 'boolean' },
      spec: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [mode, ...rest] = positionals;
  if (mode !== 'mock' && mode !== 'proxy')
    throw new UsageError(`the first argument must be mock or proxy, got ${JSON.stringify(mode ?? '')}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  if (mode === 'proxy' && values.upstream === undefined)
    throw new UsageError('proxy needs --upstream URL (e.g. http://127.0.0.1:4010/v1)');
  if (mode === 'mock' && values.upstream !== undefined) throw new UsageError('--upstream applies to proxy only');
  if (mode === 'proxy' && (values.dynamic || values.seed !== undefined))
    throw new UsageError('--dynamic and --seed apply to mock only');
  const options: PrismOptions = { mode: mode as Mode, port: parsePort(values.port, mode === 'mock' ? 4011 : 4012) };
  if (values.host !== undefined) options.host = values.host;
  if (values.upstream !== undefined) options.upstream = values.upstream;
  if (values.errors !== undefined) options.errors = values.errors;
  if (values.dynamic !== undefined) options.dynamic = values.dynamic;
  if (values.seed !== undefined) options.seed = values.seed;
  if (values.cors !== undefined) options.cors = values.cors;
  if (values.spec !== undefined) options.spec = values.spec;
  return options;
}

/** Runs the command; resolves with the exit code once Prism has stopped (or could not start). */
export async function main(argv: string[]): Promise<number> {
  let options: PrismOptions | 'help';
  try {
    options = parseCommandLine(argv);
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
  const signal = Symbol('signal');
  const signalled = new Promise<typeof signal>((resolve) => {
    process.once('SIGINT', () => resolve(signal));
    process.once('SIGTERM', () => resolve(signal));
  });
  const how = await Promise.race([signalled, prism.exited]);
  if (how === signal) {
    await prism.close();
    return 0;
  }
  process.stderr.write(`prism: Prism exited unexpectedly (${how})\n`);
  return 1;
}
