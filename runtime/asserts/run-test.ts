// Runs one Test object's checks against a value. Shared by both paths: generated code and the
// interpreter call runTest with the value they selected and the checks' configured values.
import { asserts } from './index.ts';
import type { TestOutcome } from '../plan.ts';

/**
 * All checks must hold; the first failing one gives the message `<src>: <why>`. An unknown
 * operator or a throwing one is a failed check, never a crash. Messages show only the values
 * being tested and the operator's configured value.
 */
export function runTest(actual: unknown, checks: Array<[op: string, expected: unknown]>, src: string): TestOutcome {
  for (const [name, expected] of checks) {
    const op = Object.hasOwn(asserts, name) ? asserts[name] : undefined;
    if (!op) return { ok: false, message: `${src}: unknown check ${JSON.stringify(name)}` };
    try {
      if (!op.check(actual, expected)) return { ok: false, message: `${src}: ${op.explain(actual, expected)}` };
    } catch (e) {
      return { ok: false, message: `${src}: ${name} could not be checked (${(e as Error).message})` };
    }
  }
  return { ok: true };
}
