// jq's own test suite (test/suites/jq/jq.test, jq 1.8.2) in both paths: the engine (interpreter) must pass
// every test valid for it; every program the compiler accepts must give the engine's outputs and errors.
// Prints the compiled fraction and holds it at its floor. Known differences are listed with a reason.
import { afterAll, describe, expect, it } from 'vitest';
import { compileJq } from '../../compiler/jq/compile.ts';
import { checkJq } from '../../compiler/jq/check.ts';
import { jqAll, jqCompileError, jqRunText } from '../../runtime/jq/engine.ts';
import { load, outcome } from './harness.ts';
import { suiteCases, type SuiteCase } from './suite-cases.ts';
import { configureJqBounds } from '../../runtime/jq/bounds.ts';

afterAll(() => { configureJqBounds({}); });
// Conformance and stress cases, some slow on a loaded machine: not the time bound's subject (test/security/jq-bounds.test.ts).
configureJqBounds({ SERVICE__JQ_TIMEOUT_MS: '60000' });

const cases = suiteCases();
const values = cases.filter((c): c is SuiteCase & { kind: 'value' } => c.kind === 'value');
const fails = cases.filter((c): c is SuiteCase & { kind: 'fail' } => c.kind === 'fail');

/** Tests the engine cannot pass by design, by line in jq.test, with the reason. */
const NOT_FOR_ENGINE: Record<number, string> = {};
for (const c of values) {
  if (/\b(import|include)\b|modulemeta|get_search_list|\$__prog_name/.test(c.program)) NOT_FOR_ENGINE[c.line] = 'modules: pipewright programs have no library path';
  if (/\binputs?\b/.test(c.program) && !/"[^"]*\binputs?\b/.test(c.program)) NOT_FOR_ENGINE[c.line] ??= 'input/inputs: a program sees one input';
}

/** Compiled programs whose inputs JS cannot hold (JSON.parse turns them into doubles), by line. */
const NOT_FOR_JS = (c: { input: string }): boolean => {
  try {
    return JSON.stringify(JSON.parse(c.input)) !== JSON.stringify(JSON.parse(JSON.stringify(JSON.parse(c.input)))) || /\d{16,}|[eE][+-]?\d{3,}/.test(c.input);
  } catch {
    return true;
  }
};

/** JSON text with object keys sorted: jq's equality ignores key order. */
const canonical = (text: string): string => JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v);

function same(expected: string[], actual: string[]): boolean {
  if (expected.length !== actual.length) return false;
  try {
    return expected.every((x, i) => canonical(x) === canonical(actual[i]));
  } catch {
    // jq's own equality for texts JSON.parse cannot read (nan, huge literals).
    const r = jqRunText('.[0] == .[1]', `[[${expected.join(',')}],[${actual.join(',')}]]`);
    return r.outputs[0] === 'true';
  }
}

describe('jq.test (jq 1.8.2)', { timeout: 180_000 }, () => {
  it(`the engine passes every value test valid for it (${values.length})`, () => {
    const failed: string[] = [];
    for (const c of values) {
      if (NOT_FOR_ENGINE[c.line]) continue;
      const r = jqRunText(c.program, c.input);
      // As jq --run-tests: an error after the expected outputs does not fail the test.
      if (!same(c.expected, r.outputs.slice(0, c.expected.length)) || r.outputs.length < c.expected.length || (r.outputs.length > c.expected.length)) {
        failed.push(`${c.line}: ${c.program} -> ${JSON.stringify(r.outputs)} ${r.error?.message ?? ''}`);
      }
    }
    const skipped = Object.entries(NOT_FOR_ENGINE);
    console.log(`jq.test: engine passes ${values.length - skipped.length - failed.length}/${values.length - skipped.length} value tests; ${skipped.length} not applicable:\n` +
      skipped.map(([l, why]) => `  line ${l}: ${why}`).join('\n'));
    expect(failed).toEqual([]);
  });

  it(`refuses every %%FAIL program at check time with jq's message and a position (${fails.length})`, () => {
    for (const c of fails) {
      const e = jqCompileError(c.program);
      expect(e, c.program).not.toBeNull();
      // jq's harness keeps the last message when there are several.
      if (c.message !== null) expect(`jq: error: ${e!.message}`.includes(c.message), `${c.program}: ${e!.message}`).toBe(true);
      const at = checkJq(c.program);
      expect(at, c.program).not.toBeNull();
      expect(at!.offset).toBeGreaterThanOrEqual(0);
      expect(at!.offset).toBeLessThanOrEqual(c.program.length);
      expect(compileJq(c.program), c.program).toBeNull();
    }
  });

  it('compiled programs give jq.test\'s expected outputs, and the engine\'s outputs and errors', () => {
    let compiled = 0;
    const diffs: string[] = [];
    for (const c of values) {
      const code = compileJq(c.program);
      if (!code) continue;
      compiled++;
      // Inputs JS cannot hold exactly (JSON.parse makes doubles) are compared with the engine on the same doubles.
      let input: unknown;
      try {
        input = JSON.parse(c.input);
      } catch {
        continue; // not JSON for JS (nan, huge exponents): such a request never reaches either path
      }
      const fast = outcome(() => load(code.code)(input));
      const slow = outcome(() => jqAll(c.program, input));
      if (JSON.stringify(fast) !== JSON.stringify(slow)) diffs.push(`${c.line}: ${c.program}: compiled ${JSON.stringify(fast)} engine ${JSON.stringify(slow)}`);
      // The expected answers themselves: an error after them (the engine's too) is jq --run-tests' pass.
      if (!NOT_FOR_JS(c) && 'ok' in fast) {
        const outs = (JSON.parse(fast.ok) as unknown[]).map((x) => JSON.stringify(x));
        if (!same(c.expected, outs)) diffs.push(`${c.line}: ${c.program}: compiled ${fast.ok} expected ${c.expected.join(' ')}`);
      }
    }
    console.log(`jq.test: ${compiled}/${values.length} programs compile to plain JS (${((100 * compiled) / values.length).toFixed(1)}%)`);
    expect(diffs).toEqual([]);
    expect(compiled).toBeGreaterThanOrEqual(FLOOR);
  });
});

/** The compiled count may only grow: raise it with the compiler. */
const FLOOR = 431;
