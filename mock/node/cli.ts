#!/usr/bin/env node
/** Entry point of `petstore-mock` (`npm start`): runs the command and sets the exit code. */
import { main } from './command.ts';

process.exitCode = await main(process.argv.slice(2));
