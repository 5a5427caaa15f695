#!/usr/bin/env node
'use strict';
// The petstore-conformance bin: the Node version checked first (check-node.cjs), then the command.
if (require('./check-node.cjs').nodeSupported('petstore-conformance')) import('../dist/conformance/cli.js');
