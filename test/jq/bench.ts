// Measurements behind the jq choices (not a test): `npx tsx test/jq/bench.ts`
// 1. engine candidates (our jq 1.8.2 wasm, @jq-tools/jq) against /usr/bin/jq on the corpus, speed, 10,000-call loop;
// 2. compiled fast path vs engine on a 1000-item array; 3. JSONPath compiled vs jsonPathAll vs the library.
import { createRequire } from 'node:module';
import { compileJq } from '../../compiler/jq/compile.ts';
import { compileJsonPath } from '../../compiler/jsonpath/compile.ts';
import * as jp from '../../runtime/jsonpath/ops.ts';
import { jsonPathAll } from '../../runtime/jsonpath/query.ts';
import { env } from '../../runtime/jsonpath/env.ts';
import { initJq, jqAll } from '../../runtime/jq/engine.ts';
import { CASES, INPUTS } from './corpus-cases.ts';
import { binary, load, outcome, sameResult, type Outcome } from './harness.ts';

type JqTools = { parse(src: string): unknown; evaluate(ast: unknown, inputs: unknown[]): Iterable<unknown> };
const jqTools = createRequire(import.meta.url)('@jq-tools/jq') as JqTools;
const viaJqTools = (f: string, input: unknown): unknown[] => Array.from(jqTools.evaluate(jqTools.parse(f), [input]));

function timeIt(label: string, n: number, f: () => unknown): number {
  for (let i = 0; i < Math.min(n, 50); i++) f(); // warm up
  const t = performance.now();
  for (let i = 0; i < n; i++) f();
  const us = ((performance.now() - t) / n) * 1000;
  console.log(`  ${label.padEnd(58)} ${us.toFixed(1).padStart(9)} µs`);
  return us;
}

function tryOutcome(run: () => unknown[]): Outcome {
  try {
    return { ok: JSON.stringify(run()) };
  } catch (e) {
    return { err: String((e as Error)?.message ?? e) };
  }
}

await initJq();
const names = Object.keys(INPUTS);
const inputs = names.map((n) => INPUTS[n]);

console.log('Engine candidates vs /usr/bin/jq 1.6 (corpus filters x inputs, outside documented 1.6 differences):');
let total = 0;
const agree = { 'engine (jq 1.8.2 wasm)': 0, '@jq-tools/jq': 0 };
for (const c of CASES.filter((x) => !x.v16)) {
  const bin = await binary(c.f, inputs);
  inputs.forEach((input, i) => {
    total++;
    if (sameResult(outcome(() => jqAll(c.f, input)), bin[i])) agree['engine (jq 1.8.2 wasm)']++;
    if (sameResult(tryOutcome(() => viaJqTools(c.f, input)), bin[i])) agree['@jq-tools/jq']++;
  });
}
for (const [k, v] of Object.entries(agree)) console.log(`  ${k.padEnd(14)} ${v}/${total} (${((v / total) * 100).toFixed(1)}%)`);

const items = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `item ${i}`, price: (i * 37) % 101, group: ['a', 'b', 'c'][i % 3], tags: ['x', 'y'] }));
console.log('\nEngine speed (per call):');
timeIt('engine       .a.b on a small object', 2000, () => jqAll('.a.b', { a: { b: 1 } }));
timeIt('@jq-tools/jq .a.b on a small object', 2000, () => viaJqTools('.a.b', { a: { b: 1 } }));
timeIt('engine       [.[] | select(.price > 50) | .name] (1000 items)', 200, () => jqAll('[.[] | select(.price > 50) | .name]', items));
timeIt('@jq-tools/jq [.[] | select(.price > 50) | .name] (1000 items)', 200, () => viaJqTools('[.[] | select(.price > 50) | .name]', items));

console.log('\n10,000 calls in a loop (mixed programs, errors included):');
for (const [name, run] of [['engine (jq 1.8.2 wasm)', jqAll], ['@jq-tools/jq', viaJqTools]] as const) {
  let wrong = 0;
  let failed = 0;
  const t = performance.now();
  for (let n = 0; n < 10_000; n++) {
    try {
      const r = n % 3 === 0 ? run('.a + 1', { a: n }) : n % 3 === 1 ? run('[.[] | .x] | length', [{ x: n }, { x: 1 }]) : run('.a', n);
      if (n % 3 === 2 || JSON.stringify(r) !== JSON.stringify(n % 3 === 0 ? [n + 1] : [2])) wrong++;
    } catch (e) {
      if (n % 3 !== 2) failed++;
    }
  }
  console.log(`  ${name.padEnd(14)} wrong ${wrong}, unexpected errors ${failed}, ${((performance.now() - t) / 1000).toFixed(2)} s`);
}

console.log('\nCompiled fast path vs engine on a 1000-item array:');
for (const f of [
  '.[500].name',
  'map(.price * 2)',
  '[.[] | select(.price > 50) | .name]',
  '[.[] | {id, name}]',
  'sort_by(.price) | .[0:10] | map(.id)',
  'group_by(.group) | map({g: .[0].group, n: length})',
  'map(.price) | add',
  '[.[] | "\\(.id): \\(.name)"] | join(", ") | length',
]) {
  const fn = load(compileJq(f)!.code);
  if (JSON.stringify(fn(items)) !== JSON.stringify(jqAll(f, items))) throw new Error(`results differ for ${f}`);
  console.log(f);
  const a = timeIt('compiled', 2000, () => fn(items));
  const b = timeIt('engine (jq-web)', 100, () => jqAll(f, items));
  console.log(`  ${'speed-up'.padEnd(58)} ${(b / a).toFixed(0).padStart(9)} x`);
}

console.log('\nJSONPath on {items: 1000 items}:');
const doc = { items };
for (const path of ['$.items[*].name', '$.items[500].name', 'items.500.name', '$..price', '$.items[?@.price > 50].id']) {
  console.log(path);
  const c = compileJsonPath(path);
  if (c) {
    const fn = new Function('jp', `return (${c.code.text});`)(jp) as (d: unknown) => unknown[];
    timeIt('compiled', 2000, () => fn(doc));
  }
  timeIt('jsonPathAll', 500, () => jsonPathAll(path, doc));
  if (path.startsWith('$')) timeIt('json-p3 query (uncached parse)', 500, () => env.query(path, doc));
}
