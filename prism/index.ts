/**
 * Prism beside the reference mock: start Stoplight Prism's spec-only mock or
 * its validation proxy on spec/petstore.openapi.yaml, and read the
 * `sl-violations` it reports.
 */
import { SPEC_PATH } from '../spec/files.ts';
import { findFreePort, spawnPrism } from './process.ts';

export { findFreePort } from './process.ts';
export {
  parseViolations,
  recordViolations,
  summarizeViolations,
  type ViolationRecord,
  type ViolationRecorder,
} from './violations.ts';

/** Options for {@link startPrism} and {@link prismArgs}. */
export interface PrismOptions {
  /** `mock`: answers from the spec alone; `proxy`: forwards to `upstream` and validates both ways. */
  mode: 'mock' | 'proxy';
  /** The server the proxy forwards to, including its base path (`http://127.0.0.1:4010/v1`); proxy only. */
  upstream?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; 127.0.0.1 by default. */
  host?: string;
  /** Prism's `--errors`: a request or response violation of Error severity becomes an error response. */
  errors?: boolean;
  /** Mock only: generate responses from the schemas with json-schema-faker instead of static examples. */
  dynamic?: boolean;
  /** Mock only, with `dynamic`: seed for reproducible generated responses. */
  seed?: string;
  /** Prism's own CORS handling; default on for the mock, off for the proxy so that the upstream's CORS passes unchanged. */
  cors?: boolean;
  /** The OpenAPI document (default: spec/petstore.openapi.yaml). */
  spec?: string;
  /** How long to wait for Prism to listen, in ms (default 30000). */
  startTimeoutMs?: number;
  /** Called with each piece of Prism's log as it arrives (the CLI relays it to stdout). */
  onOutput?: (text: string) => void;
}

/** A running Prism. */
export interface PrismServer {
  /** Where Prism answers, with no base path: Prism serves the spec's paths at the root (`/pets`). */
  url: string;
  port: number;
  /** Prism's log so far: startup lines (spec warnings), requests, violations. */
  output(): string;
  /** Resolves with Prism's exit code (or signal) when it ends, whether closed or crashed. */
  readonly exited: Promise<number | string>;
  /** Ends Prism's process group; safe to call twice. */
  close(): Promise<void>;
}

/** The Prism CLI arguments for `options` on `port`; throws on options that do not fit the mode. */
export function prismArgs(options: PrismOptions, port: number): string[] {
  const { mode, host = '127.0.0.1', spec = SPEC_PATH } = options;
  if (mode === 'proxy' && !options.upstream) throw new Error('proxy mode needs an upstream URL');
  if (mode === 'mock' && options.upstream) throw new Error('mock mode takes no upstream');
  if (mode === 'proxy' && (options.dynamic || options.seed !== undefined))
    throw new Error('dynamic and seed apply to mock mode only');
  const args = mode === 'proxy' ? ['proxy', spec, options.upstream!] : ['mock', spec];
  args.push('--port', String(port), '--host', host);
  args.push(`--errors=${options.errors === true}`);
  args.push(`--cors=${options.cors ?? mode === 'mock'}`);
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', options.seed);
  return args;
}

/** Spawns Prism, waits until it accepts connections, and kills it again if it does not. */
export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.upstream) checkUpstream(options.upstream);
  // Prism takes a port number, not 0, so a free one is found first.
  const port = options.port || (await findFreePort(host));
  const child = spawnPrism(prismArgs(options, port), options.onOutput);
  try {
    await child.ready(host, port, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await child.kill();
    throw error;
  }
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${hostPart}:${port}`, port, output: child.output, exited: child.exited, close: child.kill };
}

function checkUpstream(upstream: string): void {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new Error(`upstream must be an absolute http(s) URL, got ${JSON.stringify(upstream)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`upstream must be http or https, got ${url.protocol}`);
}
