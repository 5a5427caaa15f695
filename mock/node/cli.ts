#!/usr/bin/env node
/** Entry point of `petstore-mock` (`npm start`): runs the command and sets the exit code. */
import { main } from './command.ts';

// No top-level await: the single-file executable bundles this file as CommonJS (scripts/build-executables.mjs).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
