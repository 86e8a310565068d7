// StrykerJS mutation testing: `npm run mutate` (scripts/mutate.mjs runs one file at a time with the
// tests that cover it). Not part of npm test or CI; reports go to reports/mutation/ (gitignored).
// Tests come from vitest.mutation.config.ts, which keeps test/differential.test.ts and the
// timing-sensitive multi-process tests (test/durable/, test/schedule/) out of mutation runs.
const name = process.env.MUTATE_NAME ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2), // 2 by default; 1 when two runs share the machine
  // The scope of `npm run mutate` with no arguments: the executor, the HTTP action's status and
  // decoding rules, rounding, and the transforms with numeric/structural rules.
  mutate: [
    'runtime/exec/*.ts',
    'runtime/actions/http/expect-status.ts',
    'runtime/actions/http/decode-body.ts',
    'runtime/calc/round.ts',
    'runtime/transforms/math.ts',
    'runtime/transforms/numerics.ts',
    'runtime/transforms/util/target.ts',
  ],
  ignorePatterns: ['out', 'bench', 'reports', 'coverage', '.tmp', 'docs', '.stryker-tmp'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: true,
  timeoutMS: 20_000,
};
