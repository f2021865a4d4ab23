import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start child processes and an emulator; two cores do not benefit from more forks.
    maxWorkers: 2,
  },
});
