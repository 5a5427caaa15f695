/**
 * Debian's Chromium as every browser test launches it (playwright-core): headless, no sandbox (root), and none of
 * the background traffic a closed network refuses.
 */
import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

/** The arguments every browser test launches Chromium with. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, launched with {@link CHROMIUM_ARGS} and any more `args` a test needs. */
export function launchChromium(more: Pick<LaunchOptions, 'args'> = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...(more.args ?? [])],
  });
}
