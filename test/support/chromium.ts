import { accessSync, constants } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where the browser tests find Chromium, and what a run says when it is missing. Read by the test files
 * (through browser.ts) and by vitest.config.ts (the reporter below), so both decide alike.
 */
declare module 'vitest' {
  interface TaskMeta {
    /** Set on every test that drives Chromium (describeInChromium). */
    chromium?: boolean;
  }
}

/** Debian's Chromium (never a downloaded browser); CHROMIUM_PATH names another one. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** CI (`.ci/run` sets CI=true) installs Chromium: there a missing browser fails the run, it never skips. */
export const IN_CI = Boolean(process.env.CI);
export const CHROMIUM_MISSING = `no Chromium at ${CHROMIUM} (Debian/Ubuntu: apt-get install chromium; another one: CHROMIUM_PATH=<path>)`;

export function chromiumInstalled(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** One line at the end of a run that skipped browser tests, with their count and how to get Chromium. */
export class ChromiumSkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (IN_CI || chromiumInstalled()) return;
    const skipped = testModules.flatMap((module) => [...module.children.allTests('skipped')]).filter((test) => test.meta().chromium).length;
    if (skipped > 0) process.stderr.write(`\n${skipped} browser test${skipped === 1 ? '' : 's'} skipped: ${CHROMIUM_MISSING}\n`);
  }
}
