#!/usr/bin/env node
/** Entry point of `petstore-conformance` (`npm run conformance`): runs the command and sets the exit code. */
import { main } from './cli/command.ts';

// A reader that goes away early (`| head`) ends the output, not the run: the exit code stays the verdict,
// with no stack trace. Any other write error is still one.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

// No top-level await: the single-file executable bundles this file as CommonJS (scripts/build-executables.mjs).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
