#!/usr/bin/env node
'use strict';
// The petstore-mock bin: the Node version checked first (check-node.cjs), then the command.
if (require('./check-node.cjs').nodeSupported('petstore-mock')) import('../dist/mock/node/cli.js');
