import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Generated modules import the package's runtime; in the checkout that is the sources (the
  // package's export is the built dist/, which a checkout may not have).
  resolve: { alias: { 'pipewright/runtime': fileURLToPath(new URL('./runtime/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Both cores (vitest's default is one fewer than the cores: one file at a time here). Much of the
    // suite waits on processes, sockets and timers, so two files side by side use the machine. Tests
    // that race a deadline are written to hold with another file beside them (docs/decisions.md,
    // "How the test suite runs commands").
    maxWorkers: 2,
    // A fork that dies unasked is named with its test file and its exit code or signal.
    globalSetup: ['test/support/fork-exits/global.ts'],
    setupFiles: ['test/support/fork-exits/setup.ts'],
  },
});
