#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the installed bin needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../conformance/cli.ts');
