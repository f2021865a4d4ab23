import { chromium, type Browser } from 'playwright-core';
import { describe } from 'vitest';
import { CHROMIUM, CHROMIUM_MISSING, chromiumInstalled, IN_CI } from './chromium.js';

/** A headless browser that asks nothing of the network by itself (no updates, sync or first-run pages). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * describe() for tests that drive Chromium: on a machine without it they are skipped, and the run ends with
 * one line counting them and saying how to get it (ChromiumSkipReporter); in CI they run, and fail at launch.
 */
export function describeInChromium(name: string, body: () => void): void {
  describe(name, { skip: !IN_CI && !chromiumInstalled(), meta: { chromium: true } }, body);
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumInstalled()) throw new Error(`${CHROMIUM_MISSING}; CI never skips the browser tests`);
  // A fresh profile directory each launch: playwright makes one itself (it refuses --user-data-dir here).
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}
