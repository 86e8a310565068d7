// The JSONPath Compliance Test Suite (test/suites/jsonpath-cts) in both paths: compiled code (fast path)
// and jsonPathAll (interpreter). Valid selectors give the suite's node list; invalid ones are refused by
// checkJsonPath (check time) with a position. Prints the compiled fraction and holds it at 100%.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkJsonPath } from '../../compiler/jsonpath/check.ts';
import { compileJsonPath } from '../../compiler/jsonpath/compile.ts';
import * as jp from '../../runtime/jsonpath/ops.ts';
import { jsonPathAll } from '../../runtime/jsonpath/query.ts';

interface Case { name: string; selector: string; document?: unknown; result?: unknown[]; results?: unknown[][]; invalid_selector?: boolean }
const cases = (JSON.parse(readFileSync(new URL('../suites/jsonpath-cts/cts.json', import.meta.url), 'utf8')) as { tests: Case[] }).tests;
const valid = cases.filter((c) => !c.invalid_selector);
const invalid = cases.filter((c) => c.invalid_selector);

const load = (code: string) => new Function('jp', `'use strict'; return ${code};`)(jp) as (d: unknown) => unknown[];
const expectOneOf = (got: unknown[], c: Case, how: string) => {
  const options = c.result ? [c.result] : c.results!;
  const ok = options.some((o) => JSON.stringify(o) === JSON.stringify(got));
  expect(ok ? got : { got, options }, `${how}: ${c.name} ${c.selector}`).toEqual(ok ? got : options[0]);
};

describe('JSONPath Compliance Test Suite', () => {
  it(`gives the suite's node list for every valid selector in both paths (${valid.length})`, () => {
    let compiled = 0;
    for (const c of valid) {
      expect(checkJsonPath(c.selector), c.selector).toBeNull();
      expectOneOf(jsonPathAll(c.selector, c.document), c, 'interpreter');
      const fn = compileJsonPath(c.selector);
      if (!fn) continue;
      compiled++;
      expectOneOf(load(fn.code.text)(c.document), c, 'compiled');
    }
    console.log(`JSONPath CTS: ${compiled}/${valid.length} valid selectors compile to plain JS (${((100 * compiled) / valid.length).toFixed(1)}%)`);
    expect(compiled).toBe(valid.length);
  });

  it(`refuses every invalid selector at check time with a position (${invalid.length})`, () => {
    for (const c of invalid) {
      const e = checkJsonPath(c.selector);
      expect(e, c.selector).not.toBeNull();
      expect(e!.offset).toBeGreaterThanOrEqual(0);
      expect(e!.offset).toBeLessThanOrEqual(c.selector.length);
      expect(compileJsonPath(c.selector), c.selector).toBeNull();
      expect(() => jsonPathAll(c.selector, {}), c.selector).toThrow(/Invalid JSONPath/);
    }
  });
});
