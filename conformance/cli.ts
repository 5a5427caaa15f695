#!/usr/bin/env node
/**
 * Entry point of `petstore-conformance` (`npm run conformance`, the bin): runs
 * the command and sets the exit code. The logic lives in command.ts.
 */
import { main } from './command.ts';

process.exitCode = await main(process.argv.slice(2));
