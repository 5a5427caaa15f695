#!/usr/bin/env node
/** Entry point of `petstore-conformance` (`npm run conformance`): runs the command and sets the exit code. */
import { main } from './cli/command.ts';

process.exitCode = await main(process.argv.slice(2));
