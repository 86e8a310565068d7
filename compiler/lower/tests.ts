// Test and Assert objects → TestIR / AssertIR.
import type { TestIR } from '../../runtime/ir.ts';
import type { AssertIR } from '../../runtime/config-ir.ts';
import type { Assert, Test } from '../schema/config-types.ts';
import { lowerValue, lowerString } from './values.ts';
import { segments } from '../markers/parse.ts';

const SUBJECT = new Set(['value', 'jq', 'json_path']);

export function lowerTest(t: Test): TestIR {
  const test: TestIR = { checks: [], src: describe(t) };
  if (typeof t.value === 'string') test.value = lowerString(t.value, true);
  else if (t.value !== undefined) test.value = lowerValue(t.value);
  if (typeof t.jq === 'string') test.jq = t.jq;
  if (typeof t.json_path === 'string') test.path = segments(t.json_path.replace(/^\$\.?/, ''));
  for (const [op, arg] of Object.entries(t)) {
    if (!SUBJECT.has(op)) test.checks.push({ op, arg: lowerValue(arg) });
  }
  return test;
}

export function lowerAssert(a: Assert | undefined): AssertIR | undefined {
  if (!a) return undefined;
  const out: AssertIR = { tests: a.tests.map(lowerTest) };
  if (a.success_message !== undefined) out.successMessage = lowerValue(a.success_message);
  if (a.error_message !== undefined) out.errorMessage = lowerValue(a.error_message);
  return out;
}

/** A short rendering of a Test for messages: `value a|Fetch::status| is_equal_to 200`. */
function describe(t: Test): string {
  return Object.entries(t)
    .map(([k, v]) => (typeof v === 'string' ? `${k} ${v}` : `${k} ${JSON.stringify(v)}`))
    .join(', ');
}
