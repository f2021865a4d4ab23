import { defineConfig } from 'vitest/config';
import { ChromiumSkipReporter } from './test/support/chromium.js';

/** The pure core, the processors and the lifecycle with fakes: no Redis, no build, no network. */
const UNIT = ['test/unit/**/*.test.ts', 'test/matching/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start child processes and an emulator; two cores do not benefit from more forks.
    maxWorkers: 2,
    // In CI a JSON report as well, from which .ci/run prints the plain "N passed, N failed" line; last, the
    // line counting the browser tests skipped on a machine without Chromium.
    reporters: [...(process.env.CI ? ['default', 'json'] : ['default']), new ChromiumSkipReporter()],
    outputFile: { json: 'test-results.json' },
    // The test pyramid: `npm run test:unit` runs the first alone, in seconds; `npm test` runs both.
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, setupFiles: ['test/support/no-network.ts'], testTimeout: 10_000 } },
      // Real Redis under a key prefix, the emulator over HTTP, the built CLI as real processes.
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: UNIT } },
    ],
  },
});
