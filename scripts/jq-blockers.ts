// What keeps jq.test programs off the compiled path: the first construct the compiler refuses in each
// program, counted (run: node --import tsx scripts/jq-blockers.ts; BLOCKER=text lists the programs).
import { compileJq } from '../compiler/jq/compile.ts';
import { parseWhy } from '../compiler/jq/parse.ts';
import { suiteCases } from '../test/jq/suite-cases.ts';

const counts = new Map<string, number>();
let compiled = 0;
const values = suiteCases().filter((c) => c.kind === 'value');
for (const c of values) {
  const why = parseWhy(c.program);
  const key = why === null ? (compileJq(c.program) ? null : 'refused while generating code') : why.replace(/ at \d+$/, '');
  if (key === null) { compiled++; continue; }
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (process.env.BLOCKER && key.includes(process.env.BLOCKER)) console.log(`  line ${c.line}: ${c.program}`);
}
console.log(`${compiled}/${values.length} compile`);
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)}  ${k}`);
