// Vitest settings for mutation runs only (npm run mutate; docs/testing.md). Each mutated file is
// run against the test files that exercise it (MUTATE_TESTS, set by scripts/mutate.mjs), so a run
// stays minutes long on a shared 2-core machine. Never included, whatever MUTATE_TESTS says:
// test/differential.test.ts (compiles and bundles every fixture: far too slow per mutant, and its
// verdicts repeat the per-path tests) and the timing-sensitive multi-process tests (test/durable/,
// test/schedule/: several processes racing on claims would make mutants flaky, not killed).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const tests = (process.env.MUTATE_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  resolve: { alias: { 'pipewright/runtime': fileURLToPath(new URL('./runtime/index.ts', import.meta.url)) } },
  test: {
    include: tests.length ? tests : ['test/**/*.test.ts'],
    exclude: ['test/differential.test.ts', 'test/durable/**', 'test/schedule/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
