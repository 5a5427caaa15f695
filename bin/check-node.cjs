'use strict';
// The bins' first step, in syntax and calls every Node since 4 knows: on an older Node than the package needs,
// the code behind them fails to parse with a SyntaxError that names no version, so this says which one it needs.
// The version is engines.node of package.json: said once.
const engines = require('../package.json').engines.node;

/** True when this Node is at least the one engines.node names; otherwise says which it needs and sets exit code 2. */
function nodeSupported(bin) {
  const wanted = /^>=\s*(\d+)\.(\d+)/.exec(engines);
  const have = process.versions.node.split('.').map(Number);
  const need = [Number(wanted[1]), Number(wanted[2])];
  if (have[0] > need[0] || (have[0] === need[0] && have[1] >= need[1])) return true;
  process.stderr.write(
    `${bin}: needs Node ${need[0]}.${need[1]} or later (engines ${engines}); this is Node ${process.versions.node}\n`,
  );
  // 2: the run could not happen, which is not a verdict on any server.
  process.exitCode = 2;
  return false;
}

module.exports = { nodeSupported };
