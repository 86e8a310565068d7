#!/usr/bin/env node
// npm run mutate [-- [--concurrency N] file ...]: StrykerJS on each file with only the tests that exercise it, one
// file at a time (a whole-scope run with every test is hours on a 2-core machine), then the
// mutation score per file. Reports: reports/mutation/<file>.html and .json. See docs/testing.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const executor = ['test/runtime/executor.test.ts', 'test/runtime/conditions.test.ts', 'test/runtime/responses.test.ts'];
/** Mutated file → the test files that cover it (behaviour through requests, on both paths). */
const TESTS = {
  'runtime/exec/response.ts': executor,
  'runtime/exec/conditions.ts': executor,
  'runtime/exec/retry.ts': ['test/runtime/retry.test.ts', 'test/runtime/retry-rules.test.ts'],
  'runtime/exec/action.ts': [...executor, 'test/runtime/retry.test.ts', 'test/runtime/retry-rules.test.ts', 'test/runtime/transform-errors.test.ts', 'test/ops/logs.test.ts', 'test/runtime/resume.test.ts', 'test/runtime/sequence.test.ts', 'test/runtime/http-surface.test.ts', 'test/runtime/action-attempts.test.ts', 'test/runtime/lookup.test.ts'],
  'runtime/exec/sequence.ts': ['test/runtime/sequence.test.ts', 'test/runtime/conditions.test.ts', 'test/runtime/executor.test.ts'],
  'runtime/exec/run.ts': [...executor, 'test/runtime/sequence.test.ts', 'test/runtime/resume.test.ts', 'test/runtime/run-times.test.ts', 'test/realtime/ws.test.ts', 'test/realtime/ws-status.test.ts'],
  'runtime/exec/assert.ts': executor,
  'runtime/exec/input.ts': ['test/runtime/executor.test.ts'],
  'runtime/exec/params.ts': ['test/runtime/params.test.ts'],
  'runtime/exec/lookup.ts': ['test/runtime/lookup.test.ts'],
  'runtime/exec/on-error.ts': ['test/runtime/on-error.test.ts'],
  // Its served and durable tests (test/ops/shutdown: dist/; test/durable) cannot reach a sandboxed mutant.
  'runtime/exec/shutdown.ts': ['test/runtime/sequence.test.ts'],
  'runtime/actions/http/expect-status.ts': ['test/http-action/expect-status.test.ts', 'test/runtime/retry-rules.test.ts'],
  'runtime/actions/http/decode-body.ts': ['test/http-action/decoding.test.ts'],
  'runtime/calc/round.ts': ['test/calc/round.test.ts', 'test/transforms-calc/math.test.ts', 'test/runtime/math.test.ts'],
  'runtime/transforms/math.ts': ['test/transforms-calc/math.test.ts', 'test/runtime/math.test.ts', 'test/runtime/targets.test.ts'],
  'runtime/transforms/numerics.ts': ['test/transforms/numerics.test.ts'],
  'runtime/transforms/util/target.ts': ['test/runtime/targets.test.ts', 'test/transforms-calc/math.test.ts', 'test/transforms-calc/filter.test.ts'],
};

// `--concurrency N` (or MUTATE_CONCURRENCY=N): 1 when the machine is shared.
const args = process.argv.slice(2);
const c = args.indexOf('--concurrency');
if (c >= 0) process.env.MUTATE_CONCURRENCY = args.splice(c, 2)[1];
const files = args.length ? args : Object.keys(TESTS);
const scores = [];
for (const file of files) {
  const tests = (TESTS[file] ?? []).filter((t) => existsSync(t));
  if (!tests.length) {
    console.error(`mutate: no tests are mapped to ${file} (scripts/mutate.mjs)`);
    process.exitCode = 1;
    continue;
  }
  const name = file.replace(/^runtime\//, '').replace(/\.ts$/, '').replaceAll('/', '-');
  console.log(`\n== ${file} (tests: ${tests.join(', ')})`);
  rmSync(`reports/mutation/${name}.json`, { force: true }); // a failed run must not show an old score
  const r = spawnSync('npx', ['stryker', 'run', '--mutate', file], {
    stdio: 'inherit',
    env: { ...process.env, MUTATE_NAME: name, MUTATE_TESTS: tests.join(',') },
  });
  if (r.status !== 0) process.exitCode = 1;
  scores.push([file, scoreOf(`reports/mutation/${name}.json`)]);
}

console.log('\nmutation score per file (killed or timed out, of all valid mutants):');
for (const [file, s] of scores) console.log(`  ${s === undefined ? '  n/a' : s.score.toFixed(1).padStart(5) + '%'}  ${file}${s ? `  (${s.killed} killed, ${s.survived} survived, ${s.noCov} no coverage)` : ''}`);

/** Stryker's mutation score: detected / valid mutants (compile errors and ignored ones left out). */
function scoreOf(path) {
  if (!existsSync(path)) return undefined;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  let killed = 0, survived = 0, noCov = 0;
  for (const f of Object.values(report.files)) {
    for (const m of f.mutants) {
      if (m.status === 'Killed' || m.status === 'Timeout') killed++;
      else if (m.status === 'Survived') survived++;
      else if (m.status === 'NoCoverage') noCov++;
    }
  }
  const total = killed + survived + noCov;
  return { score: total ? (100 * killed) / total : 100, killed, survived, noCov };
}
