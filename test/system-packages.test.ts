/**
 * `npm test` brings the Debian packages its tests use (scripts/system-packages.mjs, its first step): missing ones
 * are installed when it runs as root with apt-get; otherwise it stops at once with the one command that installs
 * them. `npm run outside` does the same for its servers' toolchains (the `outside` argument). Here, on a PATH that
 * holds neither chromium, firefox-esr, curl, javac nor python3, only a stand-in apt-get that notes its arguments.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'system-packages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const calls = join(dir, 'apt-get.calls');
writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "$@" >> ${calls}\n`);
chmodSync(join(dir, 'apt-get'), 0o755);

function run(mode?: 'check', ...args: string[]) {
  rmSync(calls, { force: true });
  const env = { PATH: dir, ...(mode ? { PETSTORE_SYSTEM_PACKAGES: mode } : {}) };
  return runProcess([process.execPath, join(ROOT, 'scripts', 'system-packages.mjs'), ...args], { env });
}

// apt-get waits for another apt-get's dpkg lock rather than failing at once.
const LOCK = '-o DPkg::Lock::Timeout=600';

describe('scripts/system-packages.mjs', () => {
  it('says what is missing and the one command that installs it, and installs nothing when told to check', async () => {
    const checked = await run('check');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("npm test needs Debian's chromium: the browser tests");
    expect(checked.stderr).toContain("npm test needs Debian's curl");
    expect(checked.stderr).toMatch(
      /sudo apt-get install -y chromium firefox-esr( squid)? curl libxml2-utils mitmproxy( postgresql)?\n/,
    );
    expect(existsSync(calls)).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, installs what is missing with apt-get, and says so if it is still missing',
    async () => {
      const installed = await run();
      expect(readFileSync(calls, 'utf8')).toMatch(
        new RegExp(
          `^update -qq ${LOCK}\ninstall -y -qq ${LOCK} --reinstall chromium firefox-esr( squid)? curl libxml2-utils mitmproxy( postgresql)?\n$`,
        ),
      );
      // The stand-in installed nothing: the script does not pretend it did.
      expect(installed.code).toBe(1);
      expect(installed.stderr).toMatch(
        /still missing after apt-get: chromium, firefox-esr(, squid)?, curl, libxml2-utils, mitmproxy(, postgresql)?/,
      );
    },
  );

  it('with outside, names the toolchains npm run outside needs instead, and installs them as root', async () => {
    const checked = await run('check', 'outside');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("npm run outside needs Debian's default-jdk-headless: the Java server");
    expect(checked.stderr).toContain("npm run outside needs Debian's python3");
    expect(checked.stderr).not.toContain('chromium');
    // Jackson and Mojolicious are found by their files, which this PATH does not hide when they are installed.
    expect(checked.stderr).toMatch(
      /Install them, then run npm run outside again:\n {2}sudo apt-get install -y default-jdk-headless( libjackson2-databind-java)?( libmojolicious-perl)? python3\n/,
    );
    expect(existsSync(calls)).toBe(false);
    if (process.getuid?.() !== 0) return;
    const installed = await run(undefined, 'outside');
    expect(readFileSync(calls, 'utf8')).toMatch(
      new RegExp(`^update -qq ${LOCK}\ninstall -y -qq ${LOCK} --reinstall default-jdk-headless( \\S+)* python3\n$`),
    );
    expect(installed.code).toBe(1);
  });

  it('refuses an argument it does not know, naming the ones it does', async () => {
    const wrong = await run('check', 'outsde');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown argument outsde: none');
  });

  it('passes at once on this machine, where every package is there', async () => {
    const here = await runProcess([process.execPath, join(ROOT, 'scripts', 'system-packages.mjs')]);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stderr).toBe('');
  });
});
