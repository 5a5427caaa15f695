/** `petstore-conformance … | head`: a reader that goes away early ends the output quietly; the exit code stays the verdict. */
import { expect, it } from 'vitest';
import { startMockServer } from '../mock/node/index.ts';
import { runProcess } from './support/processes.ts';

it('exits with the verdict and no stack trace when stdout is closed after a few bytes (| head -c 10)', async () => {
  const mock = await startMockServer({ port: 0, apiKeys: ['epipe-key-1234'] });
  try {
    const bin = `${JSON.stringify(process.execPath)} --import tsx conformance/cli.ts`;
    const script = `err=$(mktemp); ${bin} --base-url ${mock.url} --reporter json 2>"$err" | head -c 10 >/dev/null; echo "exit=\${PIPESTATUS[0]}"; cat "$err"; rm -f "$err"`;
    const run = await runProcess(['bash', '-c', script], {
      env: { ...process.env, PETSTORE_API_KEY: 'epipe-key-1234', NO_COLOR: '1' },
    });
    expect(run.stdout.trim()).toBe('exit=0');
  } finally {
    await mock.close();
  }
}, 30_000);
