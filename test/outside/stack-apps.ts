/**
 * Starts the outside servers written in other languages (Java with Jackson, Perl's Mojolicious, Python's standard
 * library) as their own processes, each on 127.0.0.1 port 0 with its key in API_KEY; their toolchains come from
 * Debian (`node scripts/system-packages.mjs outside`, the first step of `npm run outside`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runProcess, spawnProcess } from '../support/processes.ts';

/** A running app: its base URL (ending in `/v1`), its key, and close. */
export interface StackApp {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

const HERE = join(ROOT, 'test/outside');
// Where Debian's libjackson2-databind-java (and the core and annotations it depends on) puts its jars.
const JACKSON = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((jar) => `/usr/share/java/${jar}.jar`);

async function startProcess(
  command: string[],
  apiKey: string,
  ready: RegExp,
  extraEnv: NodeJS.ProcessEnv = {},
  cleanUp = (): void => {},
): Promise<StackApp> {
  const app = spawnProcess(command, { env: { ...process.env, ...extraEnv, API_KEY: apiKey } });
  const close = async (): Promise<void> => {
    await app.stop();
    cleanUp();
  };
  try {
    const [, origin] = await app.waitForOutput(ready, 30_000);
    return { url: `${origin}/v1`, apiKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Compiles test/outside/java/PetstoreServer.java with javac into a temporary directory, then runs it. */
export async function startJavaApp(): Promise<StackApp> {
  const classes = mkdtempSync(join(tmpdir(), 'petstore-java-'));
  const cleanUp = (): void => rmSync(classes, { recursive: true, force: true });
  const classpath = JACKSON.join(':');
  const compiled = await runProcess(
    ['javac', '-cp', classpath, '-d', classes, join(HERE, 'java/PetstoreServer.java')],
    { timeoutMs: 120_000 },
  ).catch((error: Error) => ({ code: null, stderr: error.message }));
  if (compiled.code !== 0) {
    cleanUp();
    throw new Error(`javac failed (exit ${compiled.code}):\n${compiled.stderr.slice(-2000)}`);
  }
  return startProcess(
    ['java', '-cp', `${classes}:${classpath}`, 'PetstoreServer'],
    'java-app-key',
    /listening on (http:\S+)/,
    {},
    cleanUp,
  );
}

/** Runs test/outside/mojolicious/petstore.pl as Mojolicious deploys an app: its daemon, in production mode. */
export function startMojoliciousApp(): Promise<StackApp> {
  // `$| = 1` first: Perl buffers a pipe, and the address the daemon prints must reach us at once.
  const run = '$| = 1; $0 = shift; do $0; die $@ if $@';
  return startProcess(
    [
      'perl',
      '-e',
      run,
      join(HERE, 'mojolicious/petstore.pl'),
      'daemon',
      '-m',
      'production',
      '-l',
      'http://127.0.0.1:0',
    ],
    'mojolicious-app-key',
    /available at (http:\S+)/,
  );
}

/** Runs test/outside/python/petstore.py with python3. */
export function startPythonApp(): Promise<StackApp> {
  return startProcess(['python3', join(HERE, 'python/petstore.py')], 'python-app-key', /listening on (http:\S+)/, {
    PYTHONDONTWRITEBYTECODE: '1',
  });
}
