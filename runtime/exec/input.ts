// Resolving an action's input: `input` then `input_fallbacks` (first not null), or `conditional_input`
// (the first entry whose tests all hold).
import type { ActionPlan, Pred } from '../plan.ts';
import type { Scope } from '../scope.ts';

export async function resolveInput(a: ActionPlan, s: Scope): Promise<unknown> {
  if (a.conditionalInput) {
    for (const c of a.conditionalInput) {
      const v = c.input(s);
      if (await allHold(c.tests, v, s)) return v;
    }
    return undefined;
  }
  if (!a.input) return undefined;
  for (const leaf of a.input) {
    const v = leaf(s);
    // Stryker disable next-line ConditionalExpression: equivalent, a marker reads a missing value as null, never undefined
    if (v !== undefined && v !== null) return v;
  }
  return null;
}

/** Every test holds (in order, stopping at the first that fails; a test may await a jq regex). */
export async function allHold(tests: Pred[], v: unknown, s: Scope): Promise<boolean> {
  for (const t of tests) if (!(await t(v, s)).ok) return false;
  return true;
}
