// The compiled fast path, the wasm engine and /usr/bin/jq must agree on every filter × input.
// Compiled vs engine: identical outputs and identical error messages (interpreter and generated server
// must be byte-identical). Engine vs /usr/bin/jq (1.6): identical outputs or both errors, except the
// documented jq 1.6 differences.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJq } from '../../compiler/jq/compile.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { CASES, INPUTS } from './corpus-cases.ts';
import { binary, engine, load, outcome, sameResult, type Outcome } from './harness.ts';

const names = Object.keys(INPUTS);
const inputs = names.map((n) => INPUTS[n]);
const fromBinary = new Map<string, Outcome[]>();

beforeAll(async () => {
  await initJq();
  // One jq process per filter, a few at a time.
  const queue = [...CASES];
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let c = queue.shift(); c; c = queue.shift()) fromBinary.set(c.f, await binary(c.f, inputs));
  }));
}, 60_000);

describe('jq corpus', () => {
  it('has at least 80 filters, most of them compiled', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(80);
    expect(CASES.filter((c) => c.compiled !== false).length).toBeGreaterThanOrEqual(80);
  });

  for (const c of CASES) {
    it(c.f, () => {
      const code = compileJq(c.f);
      if (c.compiled === false) expect(code).toBeNull();
      else expect(code, 'compileJq returned null').not.toBeNull();
      const fn = code ? load(code.code) : null;
      const bin = fromBinary.get(c.f)!;
      const problems: string[] = [];
      names.forEach((name, i) => {
        const e = engine(c.f, inputs[i]);
        if (fn) {
          const k = outcome(() => fn(structuredClone(inputs[i])));
          if (JSON.stringify(k) !== JSON.stringify(e)) problems.push(`${name}: compiled ${JSON.stringify(k)} vs engine ${JSON.stringify(e)}`);
        }
        if (!c.v16 && !sameResult(e, bin[i])) problems.push(`${name}: engine ${JSON.stringify(e)} vs jq 1.6 ${JSON.stringify(bin[i])}`);
      });
      expect(problems).toEqual([]);
    });
  }

  it('documents only real jq 1.6 differences', () => {
    for (const c of CASES.filter((x) => x.v16)) {
      const bin = fromBinary.get(c.f)!;
      const differs = inputs.some((input, i) => !sameResult(engine(c.f, input), bin[i]));
      expect(differs, `${c.f} is marked as differing from jq 1.6 but does not`).toBe(true);
    }
  });
});
