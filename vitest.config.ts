import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A fork that dies unasked is named with its test file and its exit code or signal.
    globalSetup: ['test/support/fork-exits/global.ts'],
    setupFiles: ['test/support/fork-exits/setup.ts'],
  },
});
