#!/usr/bin/env node
// The Debian packages the tests use, brought before they run (the first step of `npm test`): what is missing is
// installed when this runs as root with apt-get, and otherwise the run stops at once with the one command that
// installs it, rather than with dozens of failing browser or proxy tests.
// `node scripts/system-packages.mjs outside` brings instead the toolchains of npm run outside's servers written in
// other languages (its first step). PETSTORE_SYSTEM_PACKAGES=check only reports (exit 1 when something is missing).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Each package, the programs (or files) that show it is there, and what needs it. */
export const NEEDED = [
  { pkg: 'chromium', bins: ['chromium'], why: 'the browser tests (headless, through playwright-core)' },
  {
    pkg: 'firefox-esr',
    bins: ['firefox-esr'],
    why: 'the test that judges a HAR Firefox exports itself (its netmonitor, headless)',
  },
  { pkg: 'squid', bins: ['squid'], why: "the proxy tests (Debian's stock Squid, started by the tests)" },
  { pkg: 'curl', bins: ['curl'], why: 'the test that runs the curl lines a report prints' },
  { pkg: 'libxml2-utils', bins: ['xmllint'], why: "the test that checks a merged run's JUnit file with xmllint" },
  { pkg: 'mitmproxy', bins: ['mitmdump'], why: "the test that judges a HAR recorded by mitmproxy's har_dump addon" },
  // initdb and pg_ctl live in /usr/lib/postgresql/VERSION/bin, off PATH; postgresql-common's pg_ctlcluster comes with them.
  {
    pkg: 'postgresql',
    bins: ['pg_ctlcluster'],
    why: 'the PostgreSQL store tests (a throwaway cluster each, started by the tests)',
  },
];

/** The toolchains of the servers npm run outside runs that are written in other languages (test/outside/). */
export const OUTSIDE = [
  { pkg: 'default-jdk-headless', bins: ['javac', 'java'], why: 'the Java server (compiled with javac at run time)' },
  {
    pkg: 'libjackson2-databind-java',
    files: ['/usr/share/java/jackson-databind.jar', '/usr/share/java/jackson-core.jar'],
    why: 'the Java server (Jackson reads and writes its JSON)',
  },
  { pkg: 'libmojolicious-perl', files: ['/usr/share/perl5/Mojolicious.pm'], why: 'the Perl server (Mojolicious)' },
  { pkg: 'python3', bins: ['python3'], why: 'the Python server (its standard library only)' },
];

function found(bin) {
  // /usr/sbin and /sbin hold servers (squid), often off a user's PATH.
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  return dirs.some((dir) => {
    try {
      accessSync(join(dir, bin), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function present({ bins = [], files = [] }) {
  return bins.every(found) && files.every((file) => existsSync(file));
}

const outside = process.argv[2] === 'outside';
if (process.argv.length > 2 && !outside) {
  process.stderr.write(`unknown argument ${process.argv[2]}: none (npm test's packages) or outside\n`);
  process.exit(2);
}
const [wanted, script] = outside ? [OUTSIDE, 'npm run outside'] : [NEEDED, 'npm test'];
const missing = wanted.filter((entry) => !present(entry));
if (missing.length === 0) process.exit(0);

const names = missing.map(({ pkg }) => pkg);
const command = `apt-get install -y ${names.join(' ')}`;
for (const { pkg, why } of missing) process.stderr.write(`${script} needs Debian's ${pkg}: ${why}\n`);
const canInstall = process.env.PETSTORE_SYSTEM_PACKAGES !== 'check' && process.getuid?.() === 0 && found('apt-get');
if (!canInstall) {
  process.stderr.write(`Install them, then run ${script} again:\n  sudo ${command}\n`);
  process.exit(1);
}
process.stderr.write(`Installing: ${command}\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
// Another install (a fresh machine's unattended upgrades, a second npm test) may hold the package manager's lock:
// wait for it, up to ten minutes, rather than fail at once.
const WAIT_FOR_LOCK = ['-o', 'DPkg::Lock::Timeout=600'];
for (const args of [
  ['update', '-qq', ...WAIT_FOR_LOCK],
  ['install', '-y', '-qq', ...WAIT_FOR_LOCK, '--reinstall', ...names],
]) {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (run.status !== 0) {
    process.stderr.write(
      `apt-get ${args[0]} failed (exit ${run.status ?? run.signal}); install them yourself:\n  ${command}\n`,
    );
    process.exit(1);
  }
}
const still = missing.filter((entry) => !present(entry)).map(({ pkg }) => pkg);
if (still.length > 0) {
  process.stderr.write(`still missing after apt-get: ${still.join(', ')}\n`);
  process.exit(1);
}
