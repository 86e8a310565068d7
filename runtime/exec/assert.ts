// Running an Assert: every test is evaluated; the verdict is data and never changes an outcome. A test
// whose jq may run a regex is awaited (runtime/jq/pool.ts).
import type { AssertPlan } from '../plan.ts';
import type { StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import { text } from '../values/text.ts';

export async function runAssert(a: AssertPlan, data: unknown, s: Scope): Promise<NonNullable<StepRecord['assert']>> {
  const failures: string[] = [];
  for (const t of a.tests) {
    let r;
    try { r = await t(data, s); } catch (e) { r = { ok: false, message: e instanceof Error ? e.message : String(e) }; }
    // Stryker disable next-line StringLiteral: unreachable, runTest gives every failed check a message
    if (!r.ok) failures.push(r.message ?? 'assertion failed');
  }
  const ok = failures.length === 0;
  const msg = ok ? a.successMessage : a.errorMessage;
  return { ok, failures, ...(msg ? { message: text(msg(s)) } : {}) };
}
