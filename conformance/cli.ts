#!/usr/bin/env node
/** Entry point of `petstore-conformance` (`npm run conformance`): runs the command and sets the exit code. */
import { main } from './cli/command.ts';

// A reader that goes away early (`| head`) ends the output, not the run: the exit code stays the verdict,
// with no stack trace. Any other write error is still one.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

process.exitCode = await main(process.argv.slice(2));
