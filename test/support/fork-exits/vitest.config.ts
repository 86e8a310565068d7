// Only for test/vitest/fork-exits.test.ts: the project's fork diagnostics on a fork that is killed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    include: ['test/support/fork-exits/*.fixture.ts'],
    pool: 'forks',
    globalSetup: ['test/support/fork-exits/global.ts'],
    setupFiles: ['test/support/fork-exits/setup.ts'],
  },
});
