// Test and Assert objects → TestIR / AssertIR.
import type { TestIR } from '../../runtime/ir.ts';
import type { AssertIR } from '../../runtime/config-ir.ts';
import { lowerValue, lowerString } from './values.ts';
import { segments } from '../markers/parse.ts';

const SUBJECT = new Set(['value', 'jq', 'json_path']);

export function lowerTest(t: Record<string, unknown>): TestIR {
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

export function lowerAssert(a: unknown): AssertIR | undefined {
  if (!a || typeof a !== 'object') return undefined;
  const o = a as Record<string, unknown>;
  const tests = Array.isArray(o.tests) ? o.tests : Array.isArray(a) ? a : [];
  const out: AssertIR = { tests: tests.map((t) => lowerTest(t as Record<string, unknown>)) };
  if (o.success_message !== undefined) out.successMessage = lowerValue(o.success_message);
  if (o.error_message !== undefined) out.errorMessage = lowerValue(o.error_message);
  return out;
}

/** A short rendering of a Test for messages: `value a|Fetch::status| is_equal_to 200`. */
function describe(t: Record<string, unknown>): string {
  return Object.entries(t)
    .map(([k, v]) => (typeof v === 'string' ? `${k} ${v}` : `${k} ${JSON.stringify(v)}`))
    .join(', ');
}
